import type { ErrorCode } from "../errors.js";

/**
 * Building the IR recurses through the schema; a refusal unwinds it to the
 * compile() boundary, where it becomes an ordinary `{ ok: false, error }`.
 * It never escapes the compile module.
 */
export class SchemaRefusal extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly path: string,
    readonly reason: string,
    /** The schema here accepts no value at all (unlike a construct strictwire does not support). */
    readonly unsatisfiable = false,
  ) {
    super(reason);
  }
}
