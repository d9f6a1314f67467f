/**
 * Validators: ajv compiled once per bundle and reused for every call. Failures
 * become Issues with JSON Pointer paths in the terms of the validated value.
 */
import { Ajv, type ErrorObject, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as addFormatsModule from "ajv-formats";
import type { Issue } from "../errors.js";
import { pointerJoin } from "../errors.js";
import type { ValidatorFamily } from "../schema/draft.js";
import { re2 } from "./regexp.js";

// ajv-formats is CommonJS: under NodeNext its plugin is the default export's default.
const addFormats = addFormatsModule.default as unknown as typeof addFormatsModule.default.default;

export type AnyAjv = Ajv | Ajv2019 | Ajv2020;

function newAjv(family: ValidatorFamily, options: Options): AnyAjv {
  if (family === "2020") return new Ajv2020(options);
  return family === "2019" ? new Ajv2019(options) : new Ajv(options);
}

const OPTIONS: Options = {
  strict: false,
  logger: false,
  // Own properties only: a "__proto__" or "constructor" member is data, never inherited behaviour.
  ownProperties: true,
  validateFormats: true,
  code: { regExp: re2 },
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

/** ajv errors as Issues; `required` and extra members point at the member itself. */
export function toIssues(errors: readonly ErrorObject[] | null | undefined): Issue[] {
  if (!errors) return [];
  const issues: Issue[] = [];
  for (const e of errors) {
    // Branch-by-branch noise of a failed anyOf/oneOf is summarised by the combinator's own error.
    if (e.keyword === "if") continue;
    let path = e.instancePath;
    let message = e.message ?? e.keyword;
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required" && typeof params.missingProperty === "string") {
      path = pointerJoin(path, params.missingProperty);
      message = "required and missing";
    } else if (e.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
      path = pointerJoin(path, params.additionalProperty);
      message = "not declared, and the schema forbids extra members";
    } else if (e.keyword === "enum" && Array.isArray(params.allowedValues)) {
      message = `must be one of ${JSON.stringify(params.allowedValues).slice(0, 200)}`;
    } else if (e.keyword === "const") {
      message = `must be ${JSON.stringify(params.allowedValue).slice(0, 200)}`;
    }
    issues.push({ path, keyword: e.keyword, message });
  }
  return dedupe(issues);
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.path}\u0000${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** One line per issue, at most `limit` of them. */
export function describeIssues(issues: readonly Issue[], limit = 5): string {
  const shown = issues.slice(0, limit).map((i) => `${i.path === "" ? "(root)" : i.path}: ${i.message}`);
  if (issues.length > limit) shown.push(`and ${issues.length - limit} more`);
  return shown.join("; ");
}

const metaValidators: Partial<Record<ValidatorFamily, AnyAjv>> = {};

/** One shared instance per family, used only for validateSchema (it keeps no schemas). */
export function metaValidator(family: ValidatorFamily): AnyAjv {
  let ajv = metaValidators[family];
  if (ajv === undefined) {
    const options = { ...OPTIONS, allErrors: true };
    ajv = newAjv(family, options);
    addFormats(ajv);
    metaValidators[family] = ajv;
  }
  return ajv;
}
