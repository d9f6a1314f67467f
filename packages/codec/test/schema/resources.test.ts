/** Multi-file schemas: documents handed to compile as resources, never fetched. */
import { compile, compileCodec } from "@strictwire/codec";
import { describe, expect, it } from "vitest";

const common = {
  $defs: { Address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};
const order = { type: "object", properties: { to: { $ref: "common.json#/$defs/Address" } }, required: ["to"] };

describe("resources", () => {
  it("a $ref into another document resolves when that document is given, keyed by a relative name", () => {
    const c = compileCodec(order, { resources: { "common.json": common } });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ to: { city: "Oslo" } }).ok).toBe(true);
    expect(c.value.validate({ to: { city: 1 } }).ok).toBe(false);
    const e = c.value.encode({ to: { city: "Oslo" } });
    if (!e.ok) throw new Error(JSON.stringify(e.error));
    expect(c.value.decode(JSON.stringify(e.value))).toEqual({ ok: true, value: { to: { city: "Oslo" } } });
  });

  it("without the document the reference is refused as remote; a list needs each document's own $id", () => {
    const refused = compile(order);
    expect(refused.ok ? undefined : refused.error.code).toBe("remote-ref");
    const listed = compile(order, { resources: [{ ...common, $id: "https://strictwire.invalid/common.json" }] });
    expect(listed.ok).toBe(true);
    const unnamed = compile(order, { resources: [common] });
    expect(unnamed.ok ? undefined : unnamed.error.code).toBe("invalid-options");
  });

  it("documents reached through one another are embedded, and the bundle carries them", () => {
    const a = { $ref: "b.json" };
    const b = { type: "integer", minimum: 3 };
    const root = { type: "object", properties: { n: { $ref: "https://example.test/a.json" } } };
    const resources = new Map<string, unknown>([
      ["https://example.test/a.json", a],
      ["https://example.test/b.json", b],
      ["https://example.test/unused.json", { type: "string" }],
    ]);
    const c = compileCodec(root, { resources });
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ n: 4 }).ok).toBe(true);
    expect(c.value.validate({ n: 2 }).ok).toBe(false);
    const carried = JSON.stringify(c.value.bundle.source);
    expect(carried).toContain("https://example.test/b.json");
    expect(carried).not.toContain("unused.json");
  });

  it("a document keyed by one URI and naming itself by another is reached by both", () => {
    const doc = { $id: "https://example.test/real.json", $defs: { bar: { type: "string" } }, $ref: "#/$defs/bar" };
    const c = compileCodec(
      { type: "object", properties: { s: { $ref: "https://example.test/key.json" } } },
      { resources: { "https://example.test/key.json": doc } },
    );
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(c.value.validate({ s: "a" }).ok).toBe(true);
    expect(c.value.validate({ s: 1 }).ok).toBe(false);
  });
});
