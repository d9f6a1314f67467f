/**
 * Validators: ajv compiled once per bundle and reused for every call. Failures
 * become Issues with JSON Pointer paths in the terms of the validated value.
 */
import { Ajv, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as addFormatsModule from "ajv-formats";
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

// Issues are read without ajv too (the run-time entry point): they live in ../issues.ts.
export { describeIssues, toIssues } from "../issues.js";

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
