// Cold start, in a fresh process: import the codec (its built dist), load a
// bundle, decode once, decode again. Or the baseline: load ajv, compile the
// source schema, parse and validate once. Prints one JSON line of timings
// (ms since the process started: performance.now() counts from its origin).
//
//   node coldstart.mjs codec|module|baseline <dir>
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [mode, dir] = process.argv.slice(2);
const start = performance.now();
const out = { mode, start };

if (mode === "codec") {
  const { loadBundle } = await import("@strictwire/codec");
  const imported = performance.now();
  const loaded = loadBundle(readFileSync(join(dir, "bundle.json"), "utf8"));
  recordCalls("loadBundle", loaded, imported);
} else if (mode === "module") {
  // The --emit module form: bundle plus every validator compiled to code; it imports only
  // @strictwire/codec/runtime/module, so neither the import nor load() loads ajv's compiler.
  const mod = await import(pathToFileURL(join(dir, "tool.bundle.mjs")).href);
  const imported = performance.now();
  const loaded = mod.load();
  recordCalls("load", loaded, imported);
} else {
  const require = createRequire(new URL("../../../packages/codec/package.json", import.meta.url));
  const { Ajv } = require("ajv");
  const addFormats = require("ajv-formats").default;
  const imported = performance.now();
  const ajv = new Ajv({ strict: false, logger: false, ownProperties: true, validateFormats: true });
  addFormats(ajv);
  const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8"));
  delete schema.$schema;
  const validate = ajv.compile(schema);
  const ready = performance.now();
  const text = readFileSync(join(dir, "original.txt"), "utf8");
  if (!validate(JSON.parse(text))) throw new Error("baseline rejects its value");
  const decoded = performance.now();
  validate(JSON.parse(text));
  const second = performance.now();
  Object.assign(out, {
    import: imported - start,
    load: ready - imported,
    first: decoded - ready,
    second: second - decoded,
    total: decoded,
  });
}
process.stdout.write(`${JSON.stringify(out)}\n`);

/** Once a codec is loaded: the load's end, then the first and a second decode of the wire text. */
function recordCalls(what, loaded, imported) {
  const ready = performance.now();
  if (!loaded.ok) throw new Error(`${what}: ${loaded.error.message}`);
  const wire = readFileSync(join(dir, "wire.txt"), "utf8");
  const first = loaded.value.decode(wire);
  if (!first.ok) throw new Error(`decode: ${first.error.message}`);
  const decoded = performance.now();
  loaded.value.decode(wire);
  const second = performance.now();
  Object.assign(out, {
    import: imported - start,
    load: ready - imported,
    first: decoded - ready,
    second: second - decoded,
    total: decoded,
  });
}
