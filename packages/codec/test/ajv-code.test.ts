/**
 * The one audited door for ajv's standalone output (src/validate/ajv-code.ts):
 * each rewrite's input and output, and each rewrite held to matching what
 * ajv writes today, so that a change in ajv's output shape fails here
 * instead of passing through unrewritten.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, test } from "vitest";
import { cjsDefault } from "../src/cjs.js";
import { render, Scope } from "../src/code.js";
import { createAjv } from "../src/validate/ajv.js";
import { AJV_REQUIRES, ajvCode } from "../src/validate/ajv-code.js";
import { DUPLICATE_ITEMS_CODE, EQUAL_CODE } from "../src/validate/equality.js";
import { re2 } from "../src/validate/regexp.js";

const standaloneCode = cjsDefault(standaloneCodeModule);
const runtime = new Scope().name("R");
const WRAP = (inner: string) =>
  `(() => {\n  const module = { exports: {} };\n  const exports = module.exports;\n  ${inner}\n  return module.exports;\n})()`;

const adopted = (text: string, schema: unknown = {}) => ajvCode("source", schema, () => text, runtime);

describe("each rewrite, input and output", () => {
  test("every require of AJV_REQUIRES becomes the runtime piece, and only the pieces met are imported", () => {
    expect(AJV_REQUIRES.map(([, piece]) => piece).sort()).toEqual([
      "duplicateItems",
      "equal",
      "fullFormats",
      "re2",
      "ucs2length",
    ]);
    for (const [required, piece] of AJV_REQUIRES) {
      const r = adopted(`const f = ${required};f(${required});`);
      if (!r.ok) throw new Error(r.error.message);
      expect(render(r.value.code)).toBe(WRAP(`const f = R.${piece};f(R.${piece});`));
      expect([...r.value.pieces]).toEqual([piece]);
      expect(r.value.rewrites.requires.get(required)).toBe(2);
    }
    const none = adopted("exports.v = 1;");
    expect(none.ok && [...none.value.pieces]).toEqual([]);
  });

  test("the formats read from fullFormats are recorded by name (a member or a quoted key); the table read itself, as every one", () => {
    const F = 'require("ajv-formats/dist/formats").fullFormats';
    const r = adopted(`const a = ${F}.date;const b = ${F}["date-time"];const c = ${F}["a\\"b"];const d = ${F}.date;`);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.formats).toEqual(new Set(["date", "date-time", 'a"b']));
    expect(render(r.value.code)).toBe(
      WRAP(
        'const a = R.fullFormats.date;const b = R.fullFormats["date-time"];const c = R.fullFormats["a\\"b"];const d = R.fullFormats.date;',
      ),
    );
    const whole = adopted(`const a = ${F}.date;const t = ${F};`);
    expect(whole.ok && whole.value.formats).toBe("every");
    const none = adopted("exports.v = 1;");
    expect(none.ok && [...(none.value.formats as Set<string>)]).toEqual([]);
  });

  test('a "__proto__" key of an object literal becomes computed; the same text inside a string does not', () => {
    const r = adopted('const a = {"__proto__":1,"b":{"__proto__":2}};const s = "{\\"__proto__\\":3}";');
    if (!r.ok) throw new Error(r.error.message);
    expect(render(r.value.code)).toBe(
      WRAP('const a = {["__proto__"]:1,"b":{["__proto__"]:2}};const s = "{\\"__proto__\\":3}";'),
    );
    expect(r.value.rewrites.protoKeys).toBe(2);
  });

  test("a schema literal declared and never read is left out; one read, one without a quote, one inside a string stay", () => {
    const text =
      '"use strict";const schema0 = {"type":"object","enum":["a;b",{"x":"}"}]};const schema1 = ["q"];' +
      'const schema2 = {};function validate0(d){const s = "x;const schema3 = {\\"a\\":1};";return d === schema1;}';
    const r = adopted(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(render(r.value.code)).toBe(
      WRAP(
        '"use strict";const schema1 = ["q"];const schema2 = {};function validate0(d){const s = "x;const schema3 = {\\"a\\":1};";return d === schema1;}',
      ),
    );
    expect(r.value.rewrites.unusedSchemas).toBe(1);
  });

  test("a require no rewrite knows is refused, with what it needs", () => {
    const r = adopted('const x = require("ajv/dist/runtime/uri").default;');
    expect(r.ok ? "ok" : [r.error.code, r.error.path, r.error.message]).toEqual([
      "unsupported-schema",
      "/source",
      'the source schema\'s validator needs "ajv/dist/runtime/uri", which a standalone module does not import',
    ]);
  });

  test('an $id holding "*/" is refused where it is, before any code is written', () => {
    let generated = false;
    const r = ajvCode(
      "wire",
      { properties: { "a/b": { $id: "x*/y" } } },
      () => {
        generated = true;
        return "";
      },
      runtime,
    );
    expect(r.ok ? "ok" : [r.error.code, r.error.path]).toEqual(["unsupported-schema", "/wire/properties/a~1b/$id"]);
    expect(generated).toBe(false);
  });

  test("ajv refusing to write code is an invalid-bundle error, not a throw", () => {
    const r = adopted("");
    expect(r.ok).toBe(true);
    const thrown = ajvCode(
      "source",
      {},
      () => {
        throw new Error("no");
      },
      runtime,
    );
    expect(thrown.ok ? "ok" : [thrown.error.code, thrown.error.message]).toEqual([
      "invalid-bundle",
      "the source schema's validator cannot be written as code: no",
    ]);
  });
});

describe("each rewrite still matches what ajv writes", () => {
  // A pattern (RE2), a length (ucs2length), a format, uniqueItems and const/enum (JSON equality), "__proto__" in values.
  const schema = JSON.parse(
    '{"$id":"https://x.invalid/tool.json","type":"object","properties":{' +
      '"s":{"type":"string","pattern":"^a+$","maxLength":4,"format":"uri"},' +
      '"u":{"type":"array","uniqueItems":true},' +
      '"c":{"const":{"__proto__":{"x":1}}},"e":{"enum":[{"__proto__":2},"z"]}}}',
  );

  const written = (allErrors: boolean) => {
    const ajv = createAjv("2020", allErrors);
    ajv.opts.code.source = true;
    return standaloneCode(ajv, ajv.compile(schema));
  };

  test.each([false, true])("allErrors %s", (allErrors) => {
    const text = written(allErrors);
    const r = ajvCode("source", schema, () => text, runtime);
    if (!r.ok) throw new Error(r.error.message);
    const { requires, protoKeys } = r.value.rewrites;
    for (const required of [
      re2.code,
      'require("ajv/dist/runtime/ucs2length").default',
      'require("ajv-formats/dist/formats").fullFormats',
      EQUAL_CODE,
      DUPLICATE_ITEMS_CODE,
    ]) {
      expect(requires.get(required) ?? 0, required).toBeGreaterThan(0);
    }
    expect(protoKeys).toBeGreaterThan(0);
    expect(render(r.value.code)).not.toMatch(/require\(/);
    // The shape the "*/" check rests on: each $id in a comment, quoted as JSON.
    expect(text).toContain(`/*# sourceURL=${JSON.stringify(schema.$id)} */`);
  });

  test("ajv reads from fullFormats exactly the formats whose entry is no regular expression, formatMinimum's too; each is recorded", () => {
    const entries = fullFormats as unknown as Record<string, unknown>;
    const names = Object.keys(entries);
    const every = {
      type: "object",
      properties: Object.fromEntries([
        ...names.map((name, i) => [`p${i}`, { format: name }]),
        ["m1", { type: "string", format: "date", formatMinimum: "2020-01-01" }],
        ["m2", { type: "string", format: "iso-time", formatExclusiveMaximum: "12:00:00" }],
      ]),
    };
    for (const allErrors of [false, true]) {
      const ajv = createAjv("2020", allErrors);
      ajv.opts.code.source = true;
      const r = ajvCode("source", every, () => standaloneCode(ajv, ajv.compile(every)), runtime);
      if (!r.ok) throw new Error(r.error.message);
      // A regular expression is written as a literal; `true` (password, binary) writes no check.
      const read = names.filter((n) => entries[n] !== true && !(entries[n] instanceof RegExp));
      expect([...(r.value.formats as Set<string>)].sort()).toEqual(read.sort());
      expect(read).toEqual(expect.arrayContaining(["date", "date-time", "uri", "byte", "int32", "regex"]));
      // formatMinimum reads the entry's compare through the same table.
      expect(render(r.value.code)).toMatch(/\.compare\(/);
    }
  });

  test("ajv's declaration of a schema no code reads is met, and left out", () => {
    // Scalars only: no keyword reads the schema, yet ajv declares it.
    const plain = { type: "object", properties: { e: { enum: ["a", 1, null] }, c: { const: "x" } }, required: ["e"] };
    for (const allErrors of [false, true]) {
      const ajv = createAjv("2020", allErrors);
      ajv.opts.code.source = true;
      const text = standaloneCode(ajv, ajv.compile(plain));
      expect(text).toContain(`const schema0 = ${JSON.stringify(plain)};`);
      const r = ajvCode("source", plain, () => text, runtime);
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.rewrites.unusedSchemas).toBe(1);
      expect(render(r.value.code)).not.toContain("schema0");
    }
  });

  test("ajv's own equal is never written (equality.ts replaces the keywords that call it); were it, it is refused", () => {
    for (const allErrors of [false, true]) {
      expect(written(allErrors)).not.toContain('require("ajv/dist/runtime/equal")');
    }
    const r = adopted('const e = require("ajv/dist/runtime/equal").default;');
    expect(r.ok ? "ok" : r.error.code).toBe("unsupported-schema");
  });
});

test("adopt, the one door from text to code, is imported by the audited module only", () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
  const importers: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith(".ts") && /import\s*\{[^}]*\badopt\b[^}]*\}\s*from/.test(readFileSync(path, "utf8"))) {
        importers.push(relative(src, path));
      }
    }
  };
  walk(src);
  expect(importers).toEqual(["validate/ajv-code.ts"]);
});
