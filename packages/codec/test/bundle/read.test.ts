/**
 * Reading a bundle: a bundle of an earlier format is refused by every loader,
 * with its own code. A JSON bundle's digest is computed and checked; the
 * bundle a generated module holds is checked against the digest its
 * validators were compiled from, but its own digest is not recomputed (the
 * module is code: no SHA-256 on that path).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { type Bundle, digestOf } from "../../src/bundle/bundle.js";
import { readBundle, readModuleBundle } from "../../src/bundle/read.js";
import { compile, loadBundle } from "../../src/index.js";
import { codecFromModule, loadJsonBundle } from "../../src/runtime-entry.js";

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

describe("a module's bundle and a JSON bundle", () => {
  const compiled = compile({
    type: "object",
    properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } },
    required: ["city"],
  });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const bundle = compiled.value;
  const always = () => true;
  const validatorsOf = (digest: string) => ({
    digest,
    source: always,
    wire: always,
    diagnoseSource: always,
    diagnoseWire: always,
    branches: new Map(),
  });
  // Content changed after compile, the digest kept: what a damaged JSON file or a hand-edited module holds.
  const edited = { ...bundle, description: "edited after compile" };

  test("a JSON bundle whose content does not match its digest is refused by both JSON loaders", async () => {
    const expected = { code: "digest-mismatch", path: "/digest" };
    expect(loadBundle(JSON.stringify(edited))).toMatchObject({ ok: false, error: expected });
    expect(await loadJsonBundle(JSON.stringify(edited))).toMatchObject({ ok: false, error: expected });
    expect(readBundle(edited)).toMatchObject({ ok: false, error: expected });
  });

  test("a module's bundle is held to the digest its validators were compiled from, not recomputed", () => {
    expect(codecFromModule(bundle, validatorsOf(bundle.digest)).ok).toBe(true);
    expect(codecFromModule(bundle, validatorsOf(`${bundle.digest.slice(0, -1)}0`))).toMatchObject({
      ok: false,
      error: {
        code: "digest-mismatch",
        path: "/digest",
        message: "the precompiled validators were compiled from another bundle",
      },
    });
    // The module is code: its bundle is as trusted as its validators.
    expect(readModuleBundle(edited)).toEqual({ ok: true, value: edited });
  });

  test("a module's bundle is still read for its format and shape", () => {
    expect(readModuleBundle({ ...bundle, plan: { ...bundle.plan, root: { kind: "nonsense" } } })).toMatchObject({
      ok: false,
      error: { code: "invalid-bundle" },
    });
    expect(readModuleBundle('{"format":')).toMatchObject({ ok: false, error: { code: "invalid-bundle" } });
    expect(readModuleBundle([])).toMatchObject({ ok: false, error: { code: "invalid-bundle", path: "" } });
    // The plan's frame: its members, the envelope, the kind of each definition.
    const plan = bundle.plan as unknown as Record<string, unknown>;
    for (const [damaged, path] of [
      [{ ...plan, envelope: "wrapped" }, "/plan/envelope"],
      [{ ...plan, relaxed: {} }, "/plan/relaxed"],
      [{ ...plan, defs: { d: { kind: "nonsense" } } }, "/plan/defs/d/kind"],
      [{ ...plan, defs: { d: [] } }, "/plan/defs/d"],
    ] as const) {
      const expected = { ok: false, error: { code: "invalid-bundle", path } };
      expect(readModuleBundle({ ...bundle, plan: damaged }), path).toMatchObject(expected);
      expect(readBundle({ ...bundle, plan: damaged }), path).toMatchObject({
        ok: false,
        error: { code: "invalid-bundle" },
      });
    }
  });

  test("a module's plan is not walked node by node (trusted as the code beside it); a JSON bundle's is", () => {
    const root = bundle.plan.root as unknown as Record<string, unknown>;
    const damaged = { ...bundle, plan: { ...bundle.plan, root: { ...root, fields: "not a list" } } };
    expect(readModuleBundle(damaged)).toEqual({ ok: true, value: damaged });
    expect(readBundle(damaged)).toMatchObject({
      ok: false,
      error: { code: "invalid-bundle", path: "/plan/root/fields", message: "expected an array" },
    });
  });

  test("a module holding an earlier format's bundle is refused as before: digest-mismatch", () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const file = join(here, "..", "..", "..", "..", "fixtures", "bundles", "move-point-tuple.format-4.json");
    const old = (JSON.parse(readFileSync(file, "utf8")) as { bundle: Bundle }).bundle;
    // loadBundle reads it, under a recomputed digest: validators compiled from it name its old one.
    const read = readBundle(old);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.digest).not.toBe(old.digest);
    const expected = { ok: false, error: { code: "digest-mismatch", path: "/digest" } };
    expect(codecFromModule(old, validatorsOf(old.digest))).toMatchObject(expected);
    expect(codecFromModule(old, validatorsOf(read.value.digest))).toMatchObject(expected);
  });
});
