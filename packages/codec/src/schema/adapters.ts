/** Input adapters: schemas written in a dialect that is almost JSON Schema, made into it before anything else reads them. */
import type { InputDialect } from "../dialects.js";
import { bfclToJsonSchema } from "./adapters/bfcl.js";
import type { Adapter } from "./prepare.js";

const ADAPTERS: Readonly<Record<InputDialect, Adapter>> = { bfcl: bfclToJsonSchema };

export function adapterFor(dialect: string | undefined): Adapter | undefined {
  // Own entries only: a name like "constructor" must not reach Object.prototype.
  return dialect !== undefined && Object.hasOwn(ADAPTERS, dialect) ? ADAPTERS[dialect as InputDialect] : undefined;
}
