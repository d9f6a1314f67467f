/**
 * Codec-aware classification with real bundles: a wire value that passes its
 * wire schema but breaks the original contract is a finding, in contract terms.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Bundle, compile } from "@strictwire/codec";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  classify,
  codecBundleLoader,
  declaredTools,
  EXIT_FINDINGS,
  EXIT_USAGE,
  functionCalls,
  loadBundlesDir,
  matchCodec,
  runClassify,
  type ToolCodec,
} from "../src/index.js";
import { capture } from "./support/io.js";

// minLength/maxLength and uniqueItems have no place in an OpenAI strict
// schema, so the wire schema drops them and only the contract holds them.
const CONTRACT = {
  type: "object",
  additionalProperties: false,
  required: ["amount_cents", "reference"],
  properties: {
    amount_cents: { type: "integer", minimum: 1 },
    reference: { type: "string", maxLength: 8 },
  },
};

let bundle: Bundle;
let codec: ToolCodec;
let dir: string;

beforeAll(async () => {
  const compiled = compile(CONTRACT, { name: "charge" });
  if (!compiled.ok) throw new Error(compiled.error.message);
  bundle = compiled.value;
  const loaded = codecBundleLoader(JSON.stringify(bundle));
  if (!loaded.ok) throw new Error(loaded.error.message);
  codec = loaded.value;
  dir = await mkdtemp(join(tmpdir(), "strictwire-bundles-"));
  await writeFile(join(dir, "charge.json"), JSON.stringify(bundle));
  await writeFile(join(dir, "notes.json"), '{"not": "a bundle"}');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function wireResponse(args: string, strict = true) {
  return {
    id: "resp_wire",
    status: "completed",
    tools: [{ type: "function", name: "charge", strict, parameters: bundle.wire }],
    output: [{ type: "function_call", name: "charge", call_id: "call_1", arguments: args }],
  };
}

const judge = (response: ReturnType<typeof wireResponse>, codecs: readonly ToolCodec[] = [codec]) =>
  classify(functionCalls(response)[0], declaredTools(response), false, { codecs });

const VALID = ' {"amount_cents": 1200, "reference": "inv-42"}';
const TOO_LONG = ' {"amount_cents": 1200, "reference": "invoice-2025-000042"}';

describe("a tool whose parameters are a strictwire wire schema", () => {
  test("a wire value that meets the contract is dispatchable, and says which bundle judged it", () => {
    const { state, detail } = judge(wireResponse(VALID));
    expect(state).toBe("dispatchable");
    expect(detail).toContain("original contract of bundle 'charge'");
  });

  test("arguments given as an object are judged as their text, as the dispatcher decodes them", () => {
    // An SDK that hands back a parsed object (as Anthropic and Gemini do): the dispatcher writes it back to text,
    // so a lone surrogate in it is refused there, and must be here.
    const response = {
      ...wireResponse(VALID),
      output: [
        {
          type: "function_call",
          name: "charge",
          call_id: "call_1",
          arguments: JSON.parse('{"amount_cents": 1200, "reference": "inv\\ud800"}'),
        },
      ],
    };
    const { state, detail } = classify(functionCalls(response)[0], declaredTools(response), false, {
      codecs: [codec],
    });
    expect(state).toBe("arguments-unparseable");
    expect(detail).toContain("invalid-utf8");
  });

  test("a wire value that passes the wire schema but breaks the contract violates the schema, in contract terms", () => {
    expect(judge(wireResponse(TOO_LONG), []).state).toBe("dispatchable");
    const { state, detail } = judge(wireResponse(TOO_LONG));
    expect(state).toBe("arguments-violate-schema");
    expect(detail).toMatch(/decoded with bundle 'charge' they break the original contract in 1 place\(s\)/);
    expect(detail).toContain("arguments.reference: must NOT have more than 8 characters");
  });

  test("a value that breaks the wire schema itself is reported against the wire schema first", () => {
    const { state, detail } = judge(wireResponse(' {"amount_cents": 0, "reference": "a"}'));
    expect(state).toBe("arguments-violate-schema");
    expect(detail).toContain("arguments.amount_cents: 0 is less than the minimum of 1");
  });

  test("an unstrict tool that meets the contract is still only unconstrained", () => {
    expect(judge(wireResponse(VALID, false)).state).toBe("dispatchable-unconstrained");
  });

  test("the bundle's own parse limits apply to the arguments text, as at dispatch", () => {
    const compiled = compile(CONTRACT, { name: "charge", limits: { maxBytes: 40 } });
    const tight = compiled.ok ? codecBundleLoader(JSON.stringify(compiled.value)) : undefined;
    if (!tight?.ok) throw new Error("the tight bundle did not load");
    const { state, detail, cause } = judge(wireResponse(VALID), [tight.value]);
    expect(state).toBe("arguments-unparseable");
    expect(cause).toBe("input-too-large");
    expect(detail).toMatch(/^the decoder of bundle 'charge' refuses the arguments text \(input-too-large: /);
  });

  test("an edited bundle fails its digest and is not used", () => {
    const edited = codecBundleLoader(JSON.stringify({ ...bundle, limits: { ...bundle.limits, maxBytes: 10 } }));
    expect(edited.ok || edited.error.message).toMatch(/^digest-mismatch/);
  });
});

describe("matching a declared tool to a bundle", () => {
  test("by deep equality with the wire schema, whatever the key order", () => {
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reversed(v)]),
            )
          : value;
    const reordered = reversed(bundle.wire);
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(bundle.wire));
    expect(matchCodec(reordered, [codec])).toBe(codec);
    expect(matchCodec(CONTRACT, [codec])).toBeUndefined();
  });

  test("by the bundle's digest named near the top of the declared schema", () => {
    const tagged = { ...CONTRACT, $comment: `strictwire ${bundle.digest}` };
    expect(matchCodec(tagged, [codec])).toBe(codec);
    expect(matchCodec({ ...CONTRACT, $comment: "sha256-0000" }, [codec])).toBeUndefined();
  });
});

describe("bundles from a directory", () => {
  test("bundles load; other JSON files are skipped with a reason", async () => {
    const loaded = await loadBundlesDir(dir);
    expect(loaded.ok && loaded.value.codecs.map((c) => [c.name, c.digest])).toEqual([["charge", bundle.digest]]);
    expect(loaded.ok && loaded.value.skipped).toEqual([
      { file: join(dir, "notes.json"), message: expect.stringMatching(/^unsupported-format/) },
    ]);
  });

  test("a FIFO or a directory named *.json is skipped with a reason, never passed over in silence", async () => {
    const odd = await mkdtemp(join(tmpdir(), "strictwire-odd-bundles-"));
    try {
      await writeFile(join(odd, "charge.json"), JSON.stringify(bundle));
      execFileSync("mkfifo", [join(odd, "fifo.json")]);
      await mkdir(join(odd, "folder.json"));
      const loaded = await loadBundlesDir(odd);
      expect(loaded.ok && loaded.value.codecs.map((c) => c.name)).toEqual(["charge"]);
      expect(loaded.ok && loaded.value.skipped.map((s) => s.file)).toEqual([
        join(odd, "fifo.json"),
        join(odd, "folder.json"),
      ]);
      expect(loaded.ok && loaded.value.skipped.every((s) => s.message !== "")).toBe(true);
    } finally {
      await rm(odd, { recursive: true, force: true });
    }
  });

  test("runClassify with --bundles finds the contract breach and exits 1", async () => {
    const c = capture();
    const code = await runClassify({ responsesText: JSON.stringify(wireResponse(TOO_LONG)), bundlesDir: dir }, c.io);
    expect(code).toBe(EXIT_FINDINGS);
    expect(c.outLines()[0]).toMatch(
      /^arguments-violate-schema {4}resp_wire charge\/call_1 {2}the arguments match the wire schema/,
    );
    expect(c.err()).toMatch(/^skipped .*notes\.json: unsupported-format/);
  });

  test("a bundles directory that cannot be read is a usage error", async () => {
    const c = capture();
    const code = await runClassify({ responsesText: "[]", bundlesDir: join(dir, "missing") }, c.io);
    expect(code).toBe(EXIT_USAGE);
    expect(c.err()).toMatch(/^cannot read the bundles directory/);
  });
});
