/**
 * Where the runtime forbids code generation (the Edge, a page with a strict
 * CSP, workerd in a request), reproduced with Node's own switch in a child
 * process: compile and a JSON bundle's load give a typed error that says what
 * to do, every time (ajv keeps a half-compiled schema after the refusal, and a
 * second compile used to blame the schema); the build-time path still works.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { compile, standaloneModule } from "../../src/index.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const TMP = join(HERE, "..", ".tmp");
let dir: string;
beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  dir = await mkdtemp(join(TMP, "codegen-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rmdir(TMP).catch(() => undefined);
});

const SCHEMA = {
  type: "object",
  properties: { room: { type: "string", pattern: "^[A-Z]{2}$" }, seats: { type: "integer", minimum: 1 } },
  required: ["room", "seats"],
  additionalProperties: false,
};

const CHILD = `
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { compile, compileCodec, loadBundle } from "@strictwire/codec";
const [moduleFile, bundleFile] = process.argv.slice(2);
const schema = ${JSON.stringify(SCHEMA)};
const outcome = (run) => {
  try {
    const r = run();
    return r.ok ? "ok" : r.error.code + ": " + r.error.message;
  } catch (e) {
    return "threw " + e.name;
  }
};
const out = {
  compileCodec: [outcome(() => compileCodec(schema)), outcome(() => compileCodec(schema)), outcome(() => compileCodec({ ...schema, description: "other" }))],
  compile: outcome(() => compile(schema)),
  loadBundle: outcome(() => loadBundle(readFileSync(bundleFile, "utf8"))),
};
// The build-time path: the module loads, decodes, and diagnoses a rejection with its own code.
const mod = await import(pathToFileURL(moduleFile).href);
const codec = mod.load();
out.module = codec.ok ? "ok" : codec.error.code;
const wire = '{"room":"NY","seats":2}';
out.decoded = JSON.stringify(codec.value.decode(wire));
const rejected = codec.value.decode('{"room":"ny","seats":2}');
out.rejected = rejected.ok ? "accepted" : rejected.error.code;
const stream = codec.value.streamDecoder();
stream.push(wire.slice(0, 9));
stream.push(wire.slice(9));
out.streamed = JSON.stringify(stream.end());
process.stdout.write(JSON.stringify(out));
`;

type Out = {
  compileCodec: string[];
  compile: string;
  loadBundle: string;
  module: string;
  decoded: string;
  rejected: string;
  streamed: string;
};

async function run(flags: string[]): Promise<Out> {
  const bundle = compile(SCHEMA, { name: "book_room" });
  if (!bundle.ok) throw new Error(bundle.error.message);
  const text = standaloneModule(bundle.value);
  if (!text.ok) throw new Error(text.error.message);
  await writeFile(join(dir, "tool.mjs"), text.value);
  await writeFile(join(dir, "bundle.json"), JSON.stringify(bundle.value));
  await writeFile(join(dir, "child.mjs"), CHILD);
  const stdout = execFileSync(
    process.execPath,
    [...flags, join(dir, "child.mjs"), join(dir, "tool.mjs"), join(dir, "bundle.json")],
    { cwd: dir, encoding: "utf8" },
  );
  return JSON.parse(stdout) as Out;
}

test("without code generation: compile and a JSON bundle's load give code-generation-unavailable, every time", async () => {
  const out = await run(["--disallow-code-generation-from-strings"]);
  for (const got of [...out.compileCodec, out.compile, out.loadBundle]) {
    expect(got).toMatch(/^code-generation-unavailable: /);
    // It says what to do.
    expect(got).toContain("strictwire compile --emit module");
    expect(got).toContain("start-up");
  }
  // The build-time path works there.
  expect(out.module).toBe("ok");
  expect(JSON.parse(out.decoded)).toEqual({ ok: true, value: { room: "NY", seats: 2 } });
  expect(out.rejected).toBe("wire-violation");
  expect(JSON.parse(out.streamed)).toEqual({ ok: true, value: { room: "NY", seats: 2 } });
});

test("with code generation allowed, the same child compiles: the refusal above is the runtime's", async () => {
  const out = await run([]);
  expect([...out.compileCodec, out.compile, out.loadBundle]).toEqual(["ok", "ok", "ok", "ok", "ok"]);
  expect(out.rejected).toBe("wire-violation");
});
