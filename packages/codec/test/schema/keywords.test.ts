/** The keyword registry alone: it knows every keyword the drafts' meta-schemas define, and places their subschemas. */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Draft, KEYWORDS, subschemasOf } from "../../src/schema/keywords.js";

const refs = join(dirname(createRequire(import.meta.url).resolve("ajv/package.json")), "dist", "refs");
const read = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, "utf8"));

/** The keywords a meta-schema (and its vocabulary meta-schemas) declares as properties. */
function metaKeywords(files: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    const properties = read(file).properties;
    if (properties !== null && typeof properties === "object") for (const k of Object.keys(properties)) out.add(k);
  }
  return out;
}

const vocabularies = (dir: string): string[] => [
  join(refs, dir, "schema.json"),
  ...readdirSync(join(refs, dir, "meta")).map((f) => join(refs, dir, "meta", f)),
];

// ajv ships no draft-04 meta-schema; draft-04's keywords are a subset of draft-06's plus `id`.
const META: [Draft, string[]][] = [
  ["2020-12", vocabularies("json-schema-2020-12")],
  ["2019-09", vocabularies("json-schema-2019-09")],
  ["draft-07", [join(refs, "json-schema-draft-07.json")]],
  ["draft-06", [join(refs, "json-schema-draft-06.json")]],
];

describe("the keyword registry", () => {
  for (const [draft, files] of META) {
    it(`lists every keyword of the ${draft} meta-schema, as defined in ${draft}`, () => {
      const keywords = metaKeywords(files);
      expect(keywords.size).toBeGreaterThan(30);
      for (const k of keywords) {
        expect(Object.hasOwn(KEYWORDS, k), k).toBe(true);
        expect(KEYWORDS[k]!.drafts, k).toContain(draft);
      }
    });
  }

  it("places the subschemas of every form, skipping dependencies' lists of names", () => {
    const schema = {
      not: { type: "string" },
      allOf: [{ minimum: 1 }, true],
      items: [{ type: "string" }],
      properties: { a: { type: "number" } },
      dependencies: { a: { required: ["b"] }, c: ["d"] },
      enum: [{ properties: { x: {} } }],
    };
    const found = subschemasOf(schema).map((e) => e.tokens.join("/"));
    expect(found.sort()).toEqual(["allOf/0", "allOf/1", "dependencies/a", "items/0", "not", "properties/a"]);
  });

  it("marks exactly the in-place applicators", () => {
    const inPlace = Object.keys(KEYWORDS)
      .filter((k) => KEYWORDS[k]!.inPlace)
      .sort();
    expect(inPlace).toEqual(
      ["$ref", "allOf", "anyOf", "dependencies", "dependentSchemas", "else", "if", "not", "oneOf", "then"].sort(),
    );
  });
});
