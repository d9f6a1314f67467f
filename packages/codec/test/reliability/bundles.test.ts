/**
 * Bundles are untrusted input: a changed bundle fails its digest; a truncated
 * or oversized one is refused; one with a recomputed digest but a malformed
 * plan is refused by the structural check, and never crashes at decode time.
 */
import { readFileSync } from "node:fs";
import { type Bundle, compile, loadBundle } from "@strictwire/codec";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalJson, resign } from "../../../../scripts/fuzz/bundle.js";

type Json = Record<string, unknown>;

let bundle: Bundle;
let text: string;
/** Valid wire texts and values for the bundle's schema. */
let wires: string[];
let values: unknown[];

/** Recursion, unions (tagged and by type), a map and optional members: every kind of plan node the decoder walks. */
const SCHEMA = {
  type: "object",
  description: "Post a reply to a thread.",
  properties: {
    thread: { $ref: "#/$defs/comment" },
    target: {
      anyOf: [
        { type: "object", properties: { email: { type: "string" } }, required: ["email"], additionalProperties: false },
        { type: "object", properties: { id: { type: "integer" } }, required: ["id"], additionalProperties: false },
      ],
    },
    value: { anyOf: [{ type: "string" }, { type: "number" }, { type: "array", items: { type: "string" } }] },
    labels: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["thread", "target"],
  additionalProperties: false,
  $defs: {
    comment: {
      type: "object",
      properties: { body: { type: "string" }, replies: { type: "array", items: { $ref: "#/$defs/comment" } } },
      required: ["body", "replies"],
      additionalProperties: false,
    },
  },
};

beforeAll(() => {
  const compiled = compile(SCHEMA, { name: "reply" });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
  bundle = compiled.value;
  text = JSON.stringify(bundle);
  const codec = loadBundle(text);
  if (!codec.ok) throw new Error(JSON.stringify(codec.error));
  values = [
    { thread: { body: "a", replies: [] }, target: { email: "a@example.com" } },
    {
      thread: { body: "a", replies: [{ body: "b", replies: [] }] },
      target: { id: 7 },
      value: ["x"],
      labels: JSON.parse('{"__proto__":"p","k":"v"}') as unknown,
    },
  ];
  wires = values.map((v) => {
    const e = codec.value.encode(v);
    if (!e.ok) throw new Error(JSON.stringify(e.error));
    return JSON.stringify(e.value);
  });
});

const copy = (): Json => JSON.parse(text) as Json;
const codeOf = (input: unknown): string => {
  const r = loadBundle(input);
  return r.ok ? "loaded" : r.error.code;
};

describe("the digest", () => {
  it("is recomputed here by the documented rule, so a re-signed untouched bundle loads", () => {
    expect(codeOf(resign(copy()))).toBe("loaded");
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });

  const tampers: [string, (b: Json) => void][] = [
    ["the wire", (b) => ((b.wire as Json).description = "changed")],
    ["a wire type", (b) => ((b.wire as Json).type = "array")],
    ["the plan", (b) => ((b.plan as Json).relaxed = [{ path: "", keyword: "x", reason: "y" }])],
    ["a plan node", (b) => (((b.plan as Json).root as Json).schema = { description: "x" })],
    ["the source", (b) => ((b.source as Json).description = "changed")],
    ["the name", (b) => (b.name = "other")],
    ["the limits", (b) => ((b.limits as Json).maxDepth = 100)],
    ["the options", (b) => ((b.options as Json).presence = "compact")],
    ["the digest itself", (b) => (b.digest = `sha256-${"0".repeat(64)}`)],
    ["a member added", (b) => (b.extra = 1)],
  ];
  for (const [what, change] of tampers) {
    it(`fails when ${what} changed after compile`, () => {
      const b = copy();
      change(b);
      expect(codeOf(JSON.stringify(b))).toBe("digest-mismatch");
      expect(codeOf(b)).toBe("digest-mismatch");
    });
  }

  it("fails for a one-character change anywhere in a string of the wire, plan or source", () => {
    let checked = 0;
    for (let at = 0; at < text.length; at += Math.max(1, Math.floor(text.length / 300))) {
      const c = text[at]!;
      if (!/[a-z]/.test(c)) continue;
      const changed = `${text.slice(0, at)}${c === "a" ? "b" : "a"}${text.slice(at + 1)}`;
      expect(["digest-mismatch", "invalid-bundle", "unsupported-format"]).toContain(codeOf(changed));
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe("damaged and oversized bundles", () => {
  it("a truncated bundle is invalid-bundle, wherever it is cut", () => {
    for (const keep of [
      0,
      1,
      10,
      Math.floor(text.length / 3),
      Math.floor(text.length / 2),
      text.length - 2,
      text.length - 1,
    ]) {
      expect(codeOf(text.slice(0, keep)), `cut at ${keep}`).toBe("invalid-bundle");
      expect(codeOf(new Uint8Array(Buffer.from(text.slice(0, keep)))), `bytes cut at ${keep}`).toBe("invalid-bundle");
    }
  });

  it("a bundle over 32 MB is invalid-bundle, as text or bytes", () => {
    const b = copy();
    b.description = "x".repeat(33 * 1024 * 1024);
    const big = JSON.stringify(b);
    expect(codeOf(big)).toBe("invalid-bundle");
    expect(codeOf(new Uint8Array(Buffer.from(big)))).toBe("invalid-bundle");
  });

  it("a bundle nested deeper than the reader allows is invalid-bundle, not a stack overflow", () => {
    const deep = `${text.slice(0, -1)},"x":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    expect(codeOf(deep)).toBe("invalid-bundle");
  });

  it("not JSON, not an object, or another format: invalid-bundle or unsupported-format", () => {
    expect(codeOf("")).toBe("invalid-bundle");
    expect(codeOf(`\ufeff${text}`)).toBe("invalid-bundle");
    expect(codeOf(new Uint8Array([0xff, ...Buffer.from(text)]))).toBe("invalid-bundle");
    expect(codeOf("[]")).toBe("invalid-bundle");
    expect(codeOf('"bundle"')).toBe("invalid-bundle");
    expect(codeOf(null)).toBe("invalid-bundle");
    const other = copy();
    other.format = "strictwire/bundle@6";
    expect(codeOf(JSON.stringify(other))).toBe("unsupported-format");
    const first = copy();
    first.format = "strictwire/bundle@1";
    expect(codeOf(JSON.stringify(first))).toBe("unsupported-format");
    const missing = copy();
    delete missing.format;
    expect(codeOf(JSON.stringify(missing))).toBe("unsupported-format");
  });

  // Each earlier format read with what it always meant: format 2 with a wrapped root, formats 3 and 4 as they are
  // (format 4's tuple still an array of a union of its positions).
  const earlier: [string, number, (plan: Json, old: Json) => void][] = [
    ["settings-nested-patch", 2, (plan) => expect(plan.envelope).toBe("arguments")],
    ["settings-nested-patch", 3, (plan, old) => expect(plan).toStrictEqual(old)],
    ["move-point-tuple", 4, (plan, old) => expect(plan).toStrictEqual(old)],
  ];
  for (const [name, format, readAs] of earlier) {
    it(`a format-${format} bundle still loads, and decodes format-${format} wire texts to the same values`, async () => {
      const old = JSON.parse(
        readFileSync(new URL(`../../../../fixtures/bundles/${name}.format-${format}.json`, import.meta.url), "utf8"),
      ) as { bundle: Json; calls: { text: string; value: unknown }[] };
      expect(old.bundle.format).toBe(`strictwire/bundle@${format}`);
      const loaded = await loadBundle(JSON.stringify(old.bundle));
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(loaded.value.bundle.format).toBe("strictwire/bundle@5");
      readAs(loaded.value.bundle.plan as unknown as Json, old.bundle.plan as Json);
      for (const call of old.calls)
        expect(loaded.value.decode(call.text)).toStrictEqual({ ok: true, value: call.value });
      // Its digest still guards it: a change after compile is caught before the upgrade.
      const changed = { ...old.bundle, name: "renamed" };
      expect(codeOf(JSON.stringify(changed))).toBe("digest-mismatch");
    });
  }

  it("a duplicated member in the bundle text is invalid-bundle (the reader is the strict parser)", () => {
    expect(codeOf(`${text.slice(0, -1)},"name":"again"}`)).toBe("invalid-bundle");
  });
});

describe("a recomputed digest over a malformed plan", () => {
  const root = (b: Json) => (b.plan as Json).root as Json;
  const firstOfKind = (b: Json, kind: string): Json => {
    const stack: unknown[] = [b.plan];
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v !== "object" || v === null) continue;
      if ((v as Json).kind === kind) return v as Json;
      stack.push(...Object.values(v));
    }
    throw new Error(`no ${kind} node`);
  };
  const malformed: [string, (b: Json) => void][] = [
    ["an unknown node kind", (b) => (root(b).kind = "tuple")],
    ["a node that is not an object", (b) => (root(b).fields = [{ name: "x", optional: false, node: 7 }])],
    ["fields that are not an array", (b) => (root(b).fields = {})],
    ["a field named twice", (b) => (root(b).fields = [...(root(b).fields as Json[]), (root(b).fields as Json[])[0]!])],
    ["an optional field with no known presence", (b) => ((root(b).fields as Json[])[0]!.optional = true)],
    [
      "inline presence on a member that is no object",
      (b) => {
        const field = (root(b).fields as Json[])[0]!;
        Object.assign(field, {
          optional: true,
          presence: "inline",
          node: { kind: "scalar", schema: {}, types: ["string"] },
        });
      },
    ],
    ["a reference to no definition", (b) => (firstOfKind(b, "ref").def = "missing")],
    ["a reference to an inherited name", (b) => (firstOfKind(b, "ref").def = "constructor")],
    ["a reference to __proto__", (b) => (firstOfKind(b, "ref").def = "__proto__")],
    ["definitions that are not an object", (b) => ((b.plan as Json).defs = [])],
    ["relaxed that is not an array", (b) => ((b.plan as Json).relaxed = {})],
    ["a union with no branches", (b) => (firstOfKind(b, "union").branches = [])],
    ["a union with one source too few", (b) => (firstOfKind(b, "union").branchSources = [])],
    ["a union rule that is unknown", (b) => (firstOfKind(b, "union").rule = { by: "guess" })],
    [
      "a type rule naming a branch out of range",
      (b) => (firstOfKind(b, "union").rule = { by: "type", types: { object: 9 } }),
    ],
    [
      "a discriminator naming a branch out of range",
      (b) => (firstOfKind(b, "union").rule = { by: "discriminator", field: "k", values: { '"a"': -1 } }),
    ],
    ["scalar types that are not a list", (b) => (firstOfKind(b, "scalar").types = "string")],
    ["a map key that is not an object", (b) => (firstOfKind(b, "map").key = "string")],
    ["a node without its schema", (b) => delete firstOfKind(b, "scalar").schema],
    ["a zero depth limit", (b) => ((b.limits as Json).maxDepth = 0)],
    ["a fractional size limit", (b) => ((b.limits as Json).maxBytes = 1.5)],
    ["a limit given as a string", (b) => ((b.limits as Json).maxNodes = "20000")],
    ["an unknown target", (b) => ((b.options as Json).target = "nope")],
    ["an unknown presence", (b) => ((b.options as Json).presence = "native")],
    ["an empty name", (b) => (b.name = "")],
    ["a wire that is not an object", (b) => (b.wire = [])],
    ["no source", (b) => delete b.source],
  ];
  for (const [what, change] of malformed) {
    it(`${what}: invalid-bundle`, () => {
      const b = copy();
      change(b);
      expect(codeOf(resign(b))).toBe("invalid-bundle");
    });
  }

  it("a source with a remote reference: invalid-bundle, nothing fetched", () => {
    const b = copy();
    (b.source as Json).properties = { x: { $ref: "https://example.com/evil.json" } };
    expect(codeOf(resign(b))).toBe("invalid-bundle");
  });

  it("a wire schema with an unsafe pattern: invalid-bundle", () => {
    const b = copy();
    (b.wire as Json).properties = { arguments: { type: "string", pattern: "(a)\\1" } };
    expect(codeOf(resign(b))).toBe("invalid-bundle");
  });

  /** Definitions d1..dk whose `anyOf` names the one below twice: 2^k chains of references, no loop. */
  const doubling = (k: number): Json => {
    const $defs: Json = { d0: { type: "string" } };
    for (let i = 1; i <= k; i++)
      $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    return $defs;
  };

  it("a wire schema whose references double thirty times (2^30 checks of a failing value): invalid-bundle at /wire", () => {
    const b = copy();
    (b.wire as Json).$defs = { ...((b.wire as Json).$defs as Json), ...doubling(30) };
    ((b.wire as Json).properties as Json).value = { $ref: "#/$defs/d30" };
    const loaded = loadBundle(resign(b));
    expect(loaded).toMatchObject({ ok: false, error: { code: "invalid-bundle" } });
    expect(loaded.ok ? "" : loaded.error.path).toMatch(/^\/wire\/\$defs\/d\d+$/);
    // Twice at each of ten levels is within what a union may hold.
    const small = copy();
    (small.wire as Json).$defs = { ...((small.wire as Json).$defs as Json), ...doubling(10) };
    expect(codeOf(resign(small))).toBe("loaded");
  });

  it("a source whose references double thirty times (2^30 checks of a failing value): invalid-bundle at /source", () => {
    const b = copy();
    (b.source as Json).$defs = { ...((b.source as Json).$defs as Json), ...doubling(30) };
    ((b.source as Json).properties as Json).value = { $ref: "#/$defs/d30" };
    const loaded = loadBundle(resign(b));
    expect(loaded).toMatchObject({ ok: false, error: { code: "invalid-bundle" } });
    expect(loaded.ok ? "" : loaded.error.path).toMatch(/^\/source\/\$defs\/d\d+$/);
    const small = copy();
    (small.source as Json).$defs = { ...((small.source as Json).$defs as Json), ...doubling(10) };
    ((small.source as Json).properties as Json).value = { $ref: "#/$defs/d10" };
    expect(codeOf(resign(small))).toBe("loaded");
  });

  it("a wire schema that refers back to itself without a container between: invalid-bundle at the loop", () => {
    const b = copy();
    (b.wire as Json).$defs = {
      ...((b.wire as Json).$defs as Json),
      a: { $ref: "#/$defs/b" },
      b: { anyOf: [{ $ref: "#/$defs/a" }] },
    };
    ((b.wire as Json).properties as Json).value = { $ref: "#/$defs/a" };
    expect(loadBundle(resign(b))).toMatchObject({
      ok: false,
      error: { code: "invalid-bundle", message: "the wire schema refers back to itself without reading any deeper" },
    });
  });

  it("whatever loads after a re-signed change to limits or options decodes and encodes without a throw", () => {
    const changes: ((b: Json) => void)[] = [
      (b) => (b.limits = { maxBytes: 1, maxNodes: 1, maxDepth: 1 }),
      (b) => (b.limits = { maxBytes: 1_000_000, maxNodes: 20_000, maxDepth: 2 }),
      (b) => ((b.options as Json).presence = "compact"),
      (b) => ((b.options as Json).openObjects = "preserve"),
      (b) => ((b.plan as Json).relaxed = []),
    ];
    for (const change of changes) {
      const b = copy();
      change(b);
      const loaded = loadBundle(resign(b));
      if (!loaded.ok) {
        expect(loaded.error.code).toBe("invalid-bundle");
        continue;
      }
      for (const w of wires) expect(() => loaded.value.decode(w)).not.toThrow();
      for (const v of values) expect(() => loaded.value.encode(v)).not.toThrow();
    }
  });
});
