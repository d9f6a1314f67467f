/**
 * From the source schema as given to the schema the validators and the IR
 * builder read: a private deep copy, a dialect adapter where asked, draft-04
 * rewritten into draft-07 terms, and a base $id so pointers into it resolve.
 */
import { cloneJson, isPlainObject } from "../json.js";
import { type Dialect, detectDialect, familyOf, rewriteDraft04, type ValidatorFamily, walkSchemas } from "./draft.js";

/** The base URI validators know the source under. Never fetched. */
export const SOURCE_ID = "https://strictwire.invalid/schema.json";

export interface PreparedSource {
  readonly schema: Record<string, unknown> | boolean;
  readonly dialect: Dialect;
  readonly family: ValidatorFamily;
  /** The URI refs into the source resolve against, for branch validators. */
  readonly id: string;
}

export type Prepared = { ok: true; value: PreparedSource } | { ok: false; reason: string };

export type Adapter = (schema: unknown) => unknown;

export function prepareSource(source: unknown, adapter?: Adapter): Prepared {
  let schema: unknown = cloneJson(source);
  if (adapter) schema = adapter(schema);
  if (typeof schema !== "boolean" && !isPlainObject(schema))
    return { ok: false, reason: "a schema must be an object or a boolean" };
  const detected = detectDialect(schema);
  if (!detected.ok) return { ok: false, reason: `unknown $schema ${JSON.stringify(detected.uri)}` };
  const dialect = detected.dialect;
  if (dialect === "draft-04") schema = rewriteDraft04(schema);
  // draft-06 reads as draft-07 (which only adds keywords); the validators know draft-07's meta-schema.
  if (dialect === "draft-06" && isPlainObject(schema)) schema.$schema = "http://json-schema.org/draft-07/schema#";
  // `$async` makes ajv return a Promise, which a synchronous check would take for a pass.
  walkSchemas(schema, (node) => {
    delete node.$async;
  });
  let id = SOURCE_ID;
  if (isPlainObject(schema)) {
    const own = typeof schema.$id === "string" ? schema.$id : undefined;
    if (own === undefined) schema.$id = SOURCE_ID;
    else id = own;
  }
  return {
    ok: true,
    value: { schema: schema as Record<string, unknown> | boolean, dialect, family: familyOf(dialect), id },
  };
}
