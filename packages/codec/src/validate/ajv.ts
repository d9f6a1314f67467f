/**
 * Validators: ajv compiled once per bundle and reused for every call. Failures
 * become Issues with JSON Pointer paths in the terms of the validated value.
 */
import { Ajv, type KeywordDefinition, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as addFormatsModule from "ajv-formats";
import type { ValidatorFamily } from "../schema/draft.js";
import { dependentCode, requiredCode } from "./empty-names.js";
import { constKeyword, enumKeyword, uniqueItemsKeyword } from "./equality.js";
import { re2 } from "./regexp.js";

// ajv-formats is CommonJS: under NodeNext its plugin is the default export's default.
const addFormats = addFormatsModule.default as unknown as typeof addFormatsModule.default.default;

export type AnyAjv = Ajv | Ajv2019 | Ajv2020;

function newAjv(family: ValidatorFamily, options: Options): AnyAjv {
  const ajv = family === "2020" ? new Ajv2020(options) : family === "2019" ? new Ajv2019(options) : new Ajv(options);
  // JSON equality (equality.ts) and "" as a required name (empty-names.ts), wherever user data is validated.
  for (const keyword of [constKeyword, enumKeyword, uniqueItemsKeyword]) replaceKeyword(ajv, keyword);
  for (const [keyword, wrap] of [
    ["required", requiredCode],
    ["dependentRequired", dependentCode],
    ["dependencies", dependentCode],
  ] as const) {
    const original = ajv.getKeyword(keyword);
    if (typeof original === "object" && "code" in original)
      replaceKeyword(ajv, { ...original, code: wrap(original.code) });
  }
  return ajv;
}

/** Replaces a keyword where it was in ajv's order of evaluation (which error comes first depends on it). */
function replaceKeyword(ajv: AnyAjv, definition: KeywordDefinition): void {
  const keyword = definition.keyword as string;
  let before: string | undefined;
  for (const group of ajv.RULES.rules) {
    const at = group.rules.findIndex((rule) => rule.keyword === keyword);
    if (at >= 0) before = group.rules[at + 1]?.keyword;
  }
  ajv.removeKeyword(keyword);
  ajv.addKeyword(before === undefined ? definition : { ...definition, before });
}

const OPTIONS: Options = {
  strict: false,
  logger: false,
  // Own properties only: a "__proto__" or "constructor" member is data, never inherited behaviour.
  ownProperties: true,
  validateFormats: true,
  // ajv's optimising pass is quadratic in how deeply its code nests, and it nests a level per
  // property: 400 optional properties took 9.5 s to compile with it, 1.5 s without, and the code
  // it spares is ~8% with no measurable change in validation time. A precompiled module, which
  // ships its code, turns the pass back on (standalone.ts).
  code: { regExp: re2, optimize: false },
};

/** `allErrors` costs time on every call: the hot path stops at the first error, diagnosis collects all. */
export function createAjv(family: ValidatorFamily, allErrors: boolean): AnyAjv {
  // Schemas are checked against their meta-schema once, at compile (metaValidator): a
  // codec's own instances skip that, which spares compiling the meta-schema per bundle.
  const options = { ...OPTIONS, allErrors, validateSchema: false };
  const ajv = newAjv(family, options);
  addFormats(ajv);
  return ajv;
}

// Issues are read without ajv too (the run-time entry point): they live in ../issues.ts.
export { describeIssues, toIssues } from "../issues.js";

const metaValidators: Partial<Record<ValidatorFamily, AnyAjv>> = {};

/** Drops the shared instances: one that saw code generation refused keeps a half-compiled meta-schema. */
export function forgetMetaValidators(): void {
  for (const family of Object.keys(metaValidators) as ValidatorFamily[]) delete metaValidators[family];
}

/** One shared instance per family, used only for validateSchema (it keeps no schemas). */
export function metaValidator(family: ValidatorFamily): AnyAjv {
  let ajv = metaValidators[family];
  if (ajv === undefined) {
    const options = { ...OPTIONS, allErrors: true };
    // Meta-schemas hold uniqueItems (draft-04's enum): the schema's own values meet JSON equality too.
    ajv = newAjv(family, options);
    addFormats(ajv);
    metaValidators[family] = ajv;
  }
  return ajv;
}
