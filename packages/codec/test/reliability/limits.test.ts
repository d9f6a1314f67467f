/** Depth limits the stack cannot check, and compile-time costs, are refused up front (docs/security.md). */
import { compile, compileCodec, loadBundle } from "@strictwire/codec";
import { describe, expect, it } from "vitest";
import { deep, obj, outcome, resigned } from "./support.js";

describe("depth limits beyond what the stack can check", () => {
  it("compile refuses maxDepth above the cap, and a codec at the cap refuses deeper values with too-deep", () => {
    expect(outcome(() => compile(obj({}), { limits: { maxDepth: 2_000_000 } }))).toBe("invalid-options");
    const atCap = compileCodec(obj({}), { limits: { maxDepth: 512, maxBytes: 10_000_000, maxNodes: 10_000_000 } });
    if (!atCap.ok) throw new Error(JSON.stringify(atCap.error));
    expect(outcome(() => atCap.value.decode(deep(500)))).toBe("ok");
    expect(outcome(() => atCap.value.decode(deep(100_000)))).toBe("too-deep");
  });

  it("decode refuses per-call limits above the cap", () => {
    const c = compileCodec(obj({}));
    if (!c.ok) throw new Error(JSON.stringify(c.error));
    expect(outcome(() => c.value.decode(deep(5000), { limits: { maxDepth: 1_000_000, maxBytes: 10_000_000 } }))).toBe(
      "invalid-options",
    );
  });

  it("a bundle whose limits allow deeper is refused when loaded", () => {
    const good = compile(obj({}));
    if (!good.ok) throw new Error(JSON.stringify(good.error));
    const text = resigned(good.value, (b) => {
      (b.limits as Record<string, unknown>).maxDepth = 1_000_000;
    });
    expect(outcome(() => loadBundle(text))).toBe("invalid-bundle");
  });
});

describe("compile-time costs", () => {
  it("an enum of 100,000 values is refused by size before the meta-schema checks it pairwise", () => {
    const code = outcome(() => compile(obj({ enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) })));
    expect(code).toBe("schema-too-large");
  });
});
