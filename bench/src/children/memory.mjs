// Heap used while decoding one large input, in a fresh process started with
// --expose-gc and a young generation large enough (--min/max-semi-space-size)
// that no collection runs during the call. Method: collect garbage, read
// v8.getHeapStatistics().used_heap_size, run the call once, read it again
// (every byte allocated by the call is still counted: nothing was collected),
// then collect garbage with the result still held (retained size). GC events
// during the call are counted with a PerformanceObserver; if any occurred the
// figure is a lower bound and is flagged.
//
//   node --expose-gc --min-semi-space-size=128 --max-semi-space-size=128 memory.mjs codec|baseline <dir> [bundle file] [wire file]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

const [mode, dir, bundleFile = "bundle.json", wireFile = "wire.txt"] = process.argv.slice(2);
if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");

let run;
let text;
if (mode === "codec") {
  const { loadBundle } = await import("@strictwire/codec");
  const loaded = loadBundle(readFileSync(join(dir, bundleFile), "utf8"));
  if (!loaded.ok) throw new Error(`loadBundle: ${loaded.error.message}`);
  text = readFileSync(join(dir, wireFile), "utf8");
  run = () => {
    const r = loaded.value.decode(text);
    if (!r.ok) throw new Error(`decode: ${r.error.message}`);
    return r.value;
  };
} else {
  const require = createRequire(new URL("../../../packages/codec/package.json", import.meta.url));
  const { Ajv } = require("ajv");
  const addFormats = require("ajv-formats").default;
  const ajv = new Ajv({ strict: false, logger: false, ownProperties: true, validateFormats: true });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")));
  text = readFileSync(join(dir, "original.txt"), "utf8");
  run = () => {
    const v = JSON.parse(text);
    if (!validate(v)) throw new Error("baseline rejects its value");
    return v;
  };
}

// One warm-up call (lazy compilation), its result dropped.
run();
let gcs = 0;
const observer = new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
});
globalThis.gc();
globalThis.gc();
await new Promise((r) => setTimeout(r, 20));
observer.observe({ entryTypes: ["gc"] });
const before = v8.getHeapStatistics().used_heap_size;
const result = run();
const after = v8.getHeapStatistics().used_heap_size;
await new Promise((r) => setTimeout(r, 50));
const gcsDuringCall = gcs;
globalThis.gc();
const retained = v8.getHeapStatistics().used_heap_size - before;
observer.disconnect();
process.stdout.write(
  `${JSON.stringify({ mode, inputBytes: Buffer.byteLength(text), allocated: after - before, retained, gcsDuringCall, keep: typeof result })}\n`,
);
