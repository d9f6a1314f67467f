/** Reading a bundle: a bundle of an earlier format is refused by every loader, with its own code. */
import { describe, expect, test } from "vitest";
import { type Bundle, digestOf } from "../../src/bundle/bundle.js";
import { compile, loadBundle } from "../../src/index.js";
import { codecFromModule, loadJsonBundle } from "../../src/runtime.js";

/** A bundle as format 1 wrote it: unions carried `source`, and branch sources were space-joined strings. */
function formatOne(bundle: Bundle): Record<string, unknown> {
  const old = JSON.parse(JSON.stringify(bundle), (_key, value: unknown) => {
    if (typeof value !== "object" || value === null || (value as { kind?: unknown }).kind !== "union") return value;
    const union = value as { branchSources: string[][] };
    return { ...union, source: "", branchSources: union.branchSources.map((p) => p.join(" ")) };
  }) as Record<string, unknown>;
  old.format = "strictwire/bundle@1";
  old.digest = digestOf(old as unknown as Bundle);
  return old;
}

describe("a bundle of format 1", () => {
  const compiled = compile({
    type: "object",
    properties: {
      v: {
        anyOf: [
          { type: "string", format: "date" },
          { type: "string", maxLength: 3 },
        ],
      },
    },
    required: ["v"],
  });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const old = formatOne(compiled.value);

  test("it differs from the current format where the plan changed", () => {
    expect(JSON.stringify(old)).toContain('"source":""');
    expect(JSON.stringify(compiled.value)).not.toContain('"source":""');
  });

  test("loadBundle, the run-time loaders and a module's loader all refuse it: unsupported-format", async () => {
    const expected = { code: "unsupported-format", path: "/format" };
    expect(loadBundle(JSON.stringify(old))).toMatchObject({ ok: false, error: expected });
    expect(await loadJsonBundle(JSON.stringify(old))).toMatchObject({ ok: false, error: expected });
    const never = () => true;
    const validators = {
      digest: old.digest as string,
      source: never,
      wire: never,
      diagnoseSource: never,
      diagnoseWire: never,
      branches: new Map(),
    };
    expect(codecFromModule(old, validators)).toMatchObject({ ok: false, error: expected });
  });
});
