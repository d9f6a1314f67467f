/**
 * ajv's errors as Issues (their words are the formatter's, feedback/format.ts). Apart from ajv itself (types
 * only), so that the run-time entry point reads errors without loading it.
 */
import type { ErrorObject } from "ajv";
import { type Issue, pointerJoin } from "./errors.js";
import { issueList } from "./feedback/format.js";
import { breachOf, issueMessage, keyRuleMessage } from "./feedback/rules.js";

/** ajv errors as Issues; `required` and extra members point at the member itself. */
export function toIssues(errors: readonly ErrorObject[] | null | undefined): Issue[] {
  if (!errors) return [];
  const issues: Issue[] = [];
  for (const e of errors) {
    // Branch-by-branch noise of a failed anyOf/oneOf is summarised by the combinator's own error.
    if (e.keyword === "if") continue;
    // The key's own failure says more than "property name must be valid".
    if (
      e.keyword === "propertyNames" &&
      errors.some((o) => (o as { propertyName?: unknown }).propertyName !== undefined)
    )
      continue;
    let path = e.instancePath;
    const params = e.params as Record<string, unknown>;
    const rule = breachOf(e.keyword, params);
    let message = issueMessage(rule, e.message ?? e.keyword);
    // A key rule (propertyNames) fails at the object: say which key broke it.
    const key = (e as { propertyName?: unknown }).propertyName;
    if (typeof key === "string" && e.keyword !== "propertyNames") {
      path = pointerJoin(path, key);
      message = keyRuleMessage(key, message);
    }
    // A member rule points at the member itself.
    if (rule?.keyword === "required") path = pointerJoin(path, rule.params.missingProperty);
    else if (rule?.keyword === "additionalProperties") path = pointerJoin(path, rule.params.additionalProperty);
    issues.push({ path, keyword: e.keyword, message, schemaPath: e.schemaPath, ...(rule ? { rule } : {}) });
  }
  // Same complaint from two branches: both kept, so diagnosis can tell the branches apart.
  return dedupeIssues(issues, true);
}

export function dedupeIssues(issues: readonly Issue[], bySchemaPath = false): Issue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.path}\u0000${i.message}${bySchemaPath ? `\u0000${i.schemaPath ?? ""}` : ""}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** One line per issue, at most `limit` of them (the formatter's list, kept here for existing importers). */
export const describeIssues = issueList;
