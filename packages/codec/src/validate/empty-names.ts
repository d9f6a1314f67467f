/**
 * `required`, `dependentRequired` and `dependencies` naming the empty member
 * name `""`. ajv 8's first-error code finds the missing name with
 * `data.x === undefined && (missing = "x")`, and `missing = ""` is falsy, so a
 * missing `""` is never found; its all-errors code checks each name on its
 * own and is right. A list holding `""` gets that per-name check (ajv's own
 * `checkReportMissingProp`) in every mode; every other list keeps ajv's code.
 */
import type { CodeKeywordDefinition, KeywordCxt } from "ajv";
import { validateSchemaDeps } from "ajv/dist/vocabularies/applicator/dependencies.js";
import { checkReportMissingProp, propertyInData } from "ajv/dist/vocabularies/code.js";

type Original = CodeKeywordDefinition["code"];

const namesEmpty = (names: unknown): boolean => Array.isArray(names) && names.includes("");

/** Each name of `names` must be present; a missing one is an error of its own. */
function requireEach(cxt: KeywordCxt, names: readonly string[]): void {
  for (const name of names) checkReportMissingProp(cxt, name);
}

/** `required` whose list holds `""`; ajv's code otherwise. */
export function requiredCode(original: Original): Original {
  return (cxt, ruleType) => {
    if (!namesEmpty(cxt.schema)) return original(cxt, ruleType);
    requireEach(cxt, cxt.schema as string[]);
  };
}

/** `dependentRequired`, and `dependencies`' name lists (its schemas stay ajv's), when a list holds `""`. */
export function dependentCode(original: Original): Original {
  return (cxt, ruleType) => {
    const schema = cxt.schema as Record<string, unknown>;
    const entries = Object.entries(schema).filter(([name]) => name !== "__proto__");
    if (!entries.some(([, deps]) => namesEmpty(deps))) return original(cxt, ruleType);
    const { gen, data, it } = cxt;
    const schemas: Record<string, unknown> = {};
    for (const [name, deps] of entries) {
      if (!Array.isArray(deps)) {
        schemas[name] = deps;
        continue;
      }
      if (deps.length === 0) continue;
      cxt.setParams({ property: name, depsCount: deps.length, deps: deps.join(", ") });
      gen.if(propertyInData(gen, data, name, it.opts.ownProperties), () => requireEach(cxt, deps as string[]));
    }
    if (Object.keys(schemas).length > 0) validateSchemaDeps(cxt, schemas as Parameters<typeof validateSchemaDeps>[1]);
  };
}
