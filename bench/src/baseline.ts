/**
 * The baseline everyone already has: a precompiled ajv 8 validator for the
 * ORIGINAL schema, with the options the codec uses (strict: false,
 * ownProperties, ajv-formats with format validation). It is the codec's own
 * ajv dependency, loaded from the codec package. Not used: the codec's RE2
 * regular-expression engine (the baseline is what a user writes by hand, so
 * patterns run on the native RegExp).
 */

import { createRequire } from "node:module";
import { isPlainObject } from "@strictwire/codec/schema";

export interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Record<string, unknown>;
}

export interface ValidateFn {
  (value: unknown): boolean;
  errors?: AjvError[] | null;
}

interface AjvLike {
  compile(schema: unknown): ValidateFn;
}

type AjvClass = new (options: Record<string, unknown>) => AjvLike;

const require = createRequire(new URL("../../packages/codec/package.json", import.meta.url));
const Ajv = (require("ajv") as { Ajv: AjvClass }).Ajv;
const Ajv2019 = (require("ajv/dist/2019") as { Ajv2019: AjvClass }).Ajv2019;
const Ajv2020 = (require("ajv/dist/2020") as { Ajv2020: AjvClass }).Ajv2020;
const addFormats = (require("ajv-formats") as { default: (ajv: AjvLike) => void }).default;

export const AJV_OPTIONS = Object.freeze({
  strict: false,
  logger: false,
  ownProperties: true,
  validateFormats: true,
  allErrors: false,
  validateSchema: false,
});

const MODERN = ["prefixItems", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems"];

type Family = "2020" | "2019" | "07";

/** The validator family and a copy of the schema ajv can compile (draft-04 booleans rewritten, foreign $schema dropped). */
export function forAjv(schema: unknown): { family: Family; schema: unknown } {
  if (!isPlainObject(schema)) return { family: "07", schema };
  const copy = structuredClone(schema) as Record<string, unknown>;
  const uri = typeof copy.$schema === "string" ? copy.$schema : "";
  let family: Family = "07";
  if (uri.includes("2020-12")) family = "2020";
  else if (uri.includes("2019-09")) family = "2019";
  else if (uri === "") {
    const text = JSON.stringify(copy);
    if (MODERN.some((k) => text.includes(`"${k}"`))) family = "2020";
  }
  if (family === "07") {
    delete copy.$schema;
    rewriteDraft04(copy);
  }
  // "$async": true makes ajv return a Promise, which is truthy: every value would look valid.
  dropAsync(copy);
  return { family, schema: copy };
}

function dropAsync(node: unknown): void {
  if (Array.isArray(node)) for (const n of node) dropAsync(n);
  else if (isPlainObject(node)) {
    delete node.$async;
    for (const v of Object.values(node)) dropAsync(v);
  }
}

function rewriteDraft04(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) rewriteDraft04(n);
    return;
  }
  if (!isPlainObject(node)) return;
  for (const [bound, limit] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof node[bound] === "boolean") {
      if (node[bound] === true && typeof node[limit] === "number") {
        node[bound] = node[limit];
        delete node[limit];
      } else delete node[bound];
    }
  }
  for (const v of Object.values(node)) rewriteDraft04(v);
}

export function newAjv(family: Family, extra: Record<string, unknown> = {}): AjvLike {
  const options = { ...AJV_OPTIONS, ...extra };
  const ajv = family === "2020" ? new Ajv2020(options) : family === "2019" ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** A precompiled validator for the original schema; throws when ajv cannot compile it. */
export function baselineValidator(schema: unknown): ValidateFn {
  const prepared = forAjv(schema);
  return newAjv(prepared.family).compile(prepared.schema);
}

/** A validator for a strict wire schema (any converter's output), draft by its $schema. */
export function wireValidator(schema: unknown): ValidateFn {
  return baselineValidator(schema);
}
