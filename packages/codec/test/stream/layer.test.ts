/**
 * The stream layer takes a codec from outside: `streamDecoder(codec, options)`
 * (from the package and from its runtime entry) is the decoder, and the
 * deprecated `codec.streamDecoder()` the same decoder by its earlier name,
 * there only where the main entry is loaded (the run-time entry's Codec has
 * no such method, so that a bundle that only decodes holds no stream decoder).
 * end() is the codec's own decode of the whole text, including a decode a
 * library schema finishes (withStandardSchema's refinements and transforms),
 * which the parsed path must not pass by.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Codec,
  CodecCore,
  compile,
  compileCodec,
  loadBundle,
  streamDecoder,
  withStandardSchema,
} from "@strictwire/codec";
import { streamDecoder as runtimeStreamDecoder } from "@strictwire/codec/runtime";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fixtureWires, split } from "./support.js";

/** Every step and the end of a decoder fed `deltas`, as JSON (the partial value is live: copied at each step). */
function transcript(decoder: ReturnType<typeof streamDecoder>, deltas: readonly string[]): string {
  const steps = deltas.map((d) => {
    const step = decoder.push(d);
    return step.ok ? { value: step.value, changed: step.changed, completed: step.completed } : step;
  });
  return JSON.stringify({ steps, end: decoder.end() });
}

describe("streamDecoder(codec, options), the stream layer's entry", () => {
  it("is one function from both entry points, and the method gives the same decoder", () => {
    expect(runtimeStreamDecoder).toBe(streamDecoder);
    const cases = fixtureWires();
    expect(cases.length).toBeGreaterThan(20);
    for (const [i, { name, codec, text }] of cases.entries()) {
      const deltas = split(text, [1 + (i % 5), 3, 7]);
      const byFunction = transcript(streamDecoder(codec), deltas);
      expect(transcript(codec.streamDecoder(), deltas), name).toBe(byFunction);
      expect(JSON.parse(byFunction).end, name).toEqual(codec.decode(text));
    }
  });

  it("the method is there only once the main entry is loaded, not enumerable as a class method", () => {
    // A child process on the built package: this test file has loaded the main entry already.
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const { Codec } = await import("@strictwire/codec/runtime");\n' +
          'const before = "streamDecoder" in Codec.prototype;\n' +
          'await import("@strictwire/codec");\n' +
          'const d = Object.getOwnPropertyDescriptor(Codec.prototype, "streamDecoder");\n' +
          "console.log(JSON.stringify({ before, after: typeof d?.value, enumerable: d?.enumerable }));",
      ],
      { cwd: join(dirname(fileURLToPath(import.meta.url)), "..", ".."), encoding: "utf8" },
    );
    expect(JSON.parse(out)).toEqual({ before: false, after: "function", enumerable: false });
  });

  it("a bundler keeps the main entry's addition: package.json's sideEffects lists the file", async () => {
    // Imported for its effect alone: with "sideEffects": false a bundler drops the import, and the method with it.
    const tmp = join(dirname(fileURLToPath(import.meta.url)), "..", ".tmp");
    mkdirSync(tmp, { recursive: true });
    const dir = mkdtempSync(join(tmp, "side-effects-"));
    try {
      const entry = join(dir, "entry.mjs");
      writeFileSync(
        entry,
        'import "@strictwire/codec";\nimport { Codec } from "@strictwire/codec/runtime";\n' +
          "export const method = typeof Codec.prototype.streamDecoder;\n",
      );
      const out = await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", write: false });
      const url = `data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString("base64")}`;
      expect(((await import(url)) as { method: string }).method).toBe("function");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("passes the options to decode: a limit refuses as decode refuses", () => {
    const codec = compileCodec({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    if (!codec.ok) throw new Error(codec.error.message);
    const text = '{"a":"a long enough string"}';
    const options = { limits: { maxBytes: 10 } };
    const decoder = streamDecoder(codec.value, options);
    const step = decoder.push(text);
    const decoded = codec.value.decode(text, options);
    expect(decoded.ok).toBe(false);
    expect(step).toEqual(decoded);
    expect(decoder.end()).toEqual(decoded);
  });

  it("takes the codec core: a Codec is one, and the factories make Codecs", () => {
    const codec = compileCodec({ type: "object", properties: { a: { type: "integer" } }, required: ["a"] });
    if (!codec.ok) throw new Error(codec.error.message);
    expect(codec.value).toBeInstanceOf(Codec);
    expect(codec.value).toBeInstanceOf(CodecCore);
    const decoder = streamDecoder<{ a: number }>(codec.value as CodecCore<{ a: number }>);
    decoder.push('{"a":4');
    decoder.push("2}");
    expect(decoder.end()).toEqual({ ok: true, value: { a: 42 } });
  });
});

describe("end() is the codec's own decode, when a library schema finishes it", () => {
  const Range = z.object({
    from: z.number(),
    to: z.number(),
    label: z.string().transform((s) => s.toUpperCase()),
  });
  const refined = Range.refine((r) => r.from <= r.to, { message: "from > to", path: ["to"] });

  it("a refinement refuses at end() as decode refuses", () => {
    const codec = compileCodec(refined);
    if (!codec.ok) throw new Error(codec.error.message);
    const text = '{"from":5,"to":1,"label":"x"}';
    const decoded = codec.value.decode(text);
    expect(decoded.ok).toBe(false);
    for (const decoder of [streamDecoder(codec.value), codec.value.streamDecoder()]) {
      for (const delta of split(text, [4])) decoder.push(delta);
      expect(decoder.end()).toEqual(decoded);
    }
  });

  it("a transform applies at end() as in decode", () => {
    const codec = compileCodec(refined);
    if (!codec.ok) throw new Error(codec.error.message);
    const text = '{"from":1,"to":5,"label":"abc"}';
    const decoder = streamDecoder(codec.value);
    for (const delta of split(text, [3])) decoder.push(delta);
    expect(decoder.end()).toEqual({ ok: true, value: { from: 1, to: 5, label: "ABC" } });
    expect(decoder.end()).toEqual(codec.value.decode(text));
  });

  it("a loaded bundle finished by withStandardSchema: end() is the wrapped decode", () => {
    const bundle = compile(z.toJSONSchema(Range, { io: "input" }), { name: "range" });
    if (!bundle.ok) throw new Error(bundle.error.message);
    const loaded = loadBundle(JSON.stringify(bundle.value));
    if (!loaded.ok) throw new Error(loaded.error.message);
    const codec = withStandardSchema(loaded.value, refined);
    for (const text of ['{"from":5,"to":1,"label":"x"}', '{"from":1,"to":5,"label":"abc"}']) {
      const decoder = streamDecoder(codec);
      for (const delta of split(text, [2, 5])) decoder.push(delta);
      expect(decoder.end(), text).toEqual(codec.decode(text));
    }
    // The core's own decode is still taken by the parsed path: the loaded codec streams to its own value.
    const plain = streamDecoder(loaded.value);
    plain.push('{"from":1,"to":5,"label":"abc"}');
    expect(plain.end()).toEqual({ ok: true, value: { from: 1, to: 5, label: "abc" } });
  });
});
