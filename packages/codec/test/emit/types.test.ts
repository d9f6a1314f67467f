/**
 * emitTypes: declarations of the original contract. The fixture corpus checks
 * them with the TypeScript compiler itself: every valid value of every fixture
 * must type-check against its tool's declarations, under the strictest options
 * and under plain strict mode.
 */
import { type Bundle, compile, compileCodec, emitTypes } from "@strictwire/codec";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { schemaFixtures } from "../../testkit/fixtures.js";

function bundleOf(schema: unknown, name = "tool", options: object = {}): Bundle {
  const r = compileCodec(schema, { name, ...options });
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.value.bundle;
}

function typesOf(schema: unknown, name = "tool"): string {
  const r = emitTypes(bundleOf(schema, name));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A JSON value as a TypeScript expression; "__proto__" as a computed key, so it stays an own member. */
function literal(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  const members = Object.entries(value).map(
    ([k, v]) => `${k === "__proto__" ? '["__proto__"]' : JSON.stringify(k)}: ${literal(v)}`,
  );
  return `{ ${members.join(", ")} }`;
}

const STRICTEST: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // ES only: the default lib would pull in the DOM, which is most of the checking time.
  lib: ["lib.es2022.d.ts"],
  noEmit: true,
  types: [],
};

// Library files parse once for every program in this file.
const parsed = new Map<string, ts.SourceFile | undefined>();

/** Type-check in-memory files; the messages of every diagnostic, prefixed by file. */
function typeCheck(files: Readonly<Record<string, string>>, options: ts.CompilerOptions = STRICTEST): string[] {
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  const mine = (f: string) => Object.hasOwn(files, f);
  host.fileExists = (f) => mine(f) || fileExists.call(host, f);
  host.readFile = (f) => (mine(f) ? files[f] : readFile.call(host, f));
  host.getSourceFile = (f, language, ...rest) => {
    if (mine(f)) return ts.createSourceFile(f, files[f]!, language, true);
    if (!parsed.has(f)) parsed.set(f, getSourceFile.call(host, f, language, ...rest));
    return parsed.get(f);
  };
  const program = ts.createProgram({ rootNames: Object.keys(files), options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

// Whole-corpus type checks take seconds each on a small machine.
describe("emitTypes on the fixture corpus", { timeout: 120_000 }, () => {
  const files: Record<string, string> = {};
  let values = 0;
  for (const fixture of schemaFixtures()) {
    const name = fixture.name.replaceAll("-", "_");
    const emitted = emitTypes(bundleOf(fixture.schema, name, fixture.options ?? {}), { typeName: "Args" });
    if (!emitted.ok) throw new Error(emitted.error.message);
    const checks = fixture.valid.map((v, i) => `export const v${i}: Args = ${literal(v)};`);
    values += checks.length;
    // One module per fixture: the declarations, then a typed constant per valid value.
    files[`/t/${name}.ts`] = `${emitted.value}\n${checks.join("\n")}\n`;
  }

  it("a tuple is a TypeScript tuple: its positions, the optional ones marked, then the rest", () => {
    const text = typesOf({
      type: "object",
      properties: {
        at: {
          type: "array",
          prefixItems: [{ type: "number" }, { anyOf: [{ type: "string" }, { type: "null" }] }],
          minItems: 1,
          items: { type: "boolean" },
        },
      },
      required: ["at"],
    });
    expect(text).toContain("at: [number, (string | null)?, ...boolean[]]");
  });

  it("covers the corpus", () => {
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(20);
    expect(values).toBeGreaterThanOrEqual(100);
  });

  it("admits every valid value under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess", () => {
    expect(typeCheck(files)).toEqual([]);
  });

  it("compiles as plain strict TypeScript too (optional members then also admit undefined)", () => {
    expect(
      typeCheck(files, { ...STRICTEST, exactOptionalPropertyTypes: false, noUncheckedIndexedAccess: false }),
    ).toEqual([]);
  });
});

describe("emitTypes", () => {
  const contact = {
    description: "Change a contact. Absent leaves a field as it is; null clears it.",
    type: "object",
    properties: {
      id: { type: "string", description: "Contact id" },
      phone: { type: ["string", "null"] },
      kind: { enum: ["person", "company"] },
      "display-name": { type: "string" },
      labels: { type: "object", additionalProperties: { type: "string" } },
      extra: {},
      priority: { type: "integer" },
    },
    required: ["id"],
    additionalProperties: false,
  };

  it("writes optional members as `?`, nullable as `| null`, maps as index signatures", () => {
    expect(typesOf(contact, "update_contact")).toBe(
      [
        '// The original contract of tool "update_contact": what decode returns.',
        "// Generated by strictwire from the tool's schema. Regenerate it; do not edit.",
        "",
        "/** Change a contact. Absent leaves a field as it is; null clears it. */",
        "export interface UpdateContactArguments {",
        "  /** Contact id */",
        "  id: string;",
        "  phone?: string | null;",
        '  kind?: "person" | "company";',
        '  "display-name"?: string;',
        "  labels?: { [key: string]: string };",
        "  extra?: JsonValue;",
        "  priority?: number;",
        "}",
        "",
        "/** Any JSON value. */",
        "export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };",
        "",
      ].join("\n"),
    );
  });

  it("lets the compiler tell absent from undefined and catch a missing member or a wrong literal", () => {
    const checks = [
      "export const a: UpdateContactArguments = { id: 'c1', phone: null };",
      "export const b: UpdateContactArguments = { id: 'c1', phone: undefined };",
      "export const c: UpdateContactArguments = { phone: '1' };",
      "export const d: UpdateContactArguments = { id: 'c1', kind: 'robot' };",
    ];
    const errors = typeCheck({ "/t/check.ts": `${typesOf(contact, "update_contact")}\n${checks.join("\n")}\n` });
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/undefined/);
    expect(errors[1]).toMatch(/'id' is missing/);
    expect(errors[2]).toMatch(/"robot"/);
  });

  it("declares members beside dynamic entries with an index signature that admits both", () => {
    const text = typesOf(
      {
        type: "object",
        properties: { name: { type: "string" }, on: { type: "boolean" } },
        required: ["name"],
        additionalProperties: { type: "number" },
      },
      "mixed",
    );
    expect(text).toContain(
      "export interface MixedArguments {\n  name: string;\n  on?: boolean;\n  [key: string]: number | string | boolean | undefined;\n}",
    );
  });

  it("names definitions and follows recursion through them", () => {
    const text = typesOf(
      {
        type: "object",
        properties: { root: { $ref: "#/$defs/tree-node" } },
        required: ["root"],
        $defs: {
          "tree-node": {
            type: "object",
            properties: {
              label: { type: "string" },
              children: { type: "array", items: { $ref: "#/$defs/tree-node" } },
              parent: { anyOf: [{ $ref: "#/$defs/tree-node" }, { type: "null" }] },
            },
            required: ["label", "children"],
          },
        },
      },
      "tree",
    );
    expect(text).toContain("export interface TreeArguments {\n  root: TreeNode;\n}");
    expect(text).toContain(
      "export interface TreeNode {\n  label: string;\n  children: TreeNode[];\n  parent?: TreeNode | null;\n}",
    );
  });

  it("never meets a union that names its own cycle: compile refuses such a loop, which no validator could finish", () => {
    const schema = {
      type: "object",
      properties: { expr: { $ref: "#/$defs/expr" } },
      required: ["expr"],
      $defs: {
        expr: { anyOf: [{ $ref: "#/$defs/atom" }, { type: "array", items: { $ref: "#/$defs/expr" } }] },
        atom: { anyOf: [{ $ref: "#/$defs/expr" }, { type: "string" }, { type: "number" }] },
      },
    };
    const compiled = compile(schema, { name: "calc" });
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.error.code).toBe("unsupported-schema");
  });

  it("keeps generated names apart from each other and from the arguments type", () => {
    const text = typesOf(
      {
        type: "object",
        properties: { a: { $ref: "#/$defs/a_b" }, b: { $ref: "#/$defs/a-b" }, c: { $ref: "#/$defs/ToolArguments" } },
        $defs: {
          a_b: { type: "string" },
          "a-b": { type: "number" },
          ToolArguments: { type: "boolean" },
        },
      },
      "tool",
    );
    // Definitions are named in sorted order: "a-b" before "a_b".
    expect(text).toContain("a?: AB2;");
    expect(text).toContain("b?: AB;");
    expect(text).toContain("c?: ToolArguments2;");
    expect(typeCheck({ "/t/x.ts": text })).toEqual([]);
  });

  it("writes const and enum literals, keyed maps and closed empty objects", () => {
    const text = typesOf(
      {
        type: "object",
        properties: {
          op: { const: "delete" },
          level: { type: "integer", enum: [1, 2, 3] },
          scores: {
            type: "object",
            propertyNames: { enum: ["math", "art"] },
            additionalProperties: { type: "number" },
          },
          nothing: { type: "object", properties: {}, additionalProperties: false },
        },
        required: ["op", "level", "scores", "nothing"],
      },
      "misc",
    );
    expect(text).toContain('  op: "delete";');
    expect(text).toContain("  level: 1 | 2 | 3;");
    expect(text).toContain('  scores: { [K in "math" | "art"]?: number };');
    expect(text).toContain("  nothing: { [key: string]: never };");
    expect(typeCheck({ "/t/x.ts": text })).toEqual([]);
  });

  it("keeps a description from closing its comment early", () => {
    const text = typesOf(
      { type: "object", properties: { x: { type: "string", description: "ends */ here\nsecond line" } } },
      "doc",
    );
    expect(text).toContain("  /**\n   * ends *\\/ here\n   * second line\n   */\n  x?: string;");
    expect(typeCheck({ "/t/x.ts": text })).toEqual([]);
  });

  it("refuses a type name that is not an identifier, as a value", () => {
    const r = emitTypes(bundleOf({ type: "object" }, "t"), { typeName: "not a name" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("invalid-options");
  });
});
