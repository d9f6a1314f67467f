/** Input adapters: schemas that are almost JSON Schema, made into it before anything else reads them. */
import { bfclToJsonSchema } from "./adapters/bfcl.js";
import type { Adapter } from "./prepare.js";

const ADAPTERS: Readonly<Record<string, Adapter>> = { bfcl: bfclToJsonSchema };

export function adapterFor(dialect: string | undefined): Adapter | undefined {
  // Own entries only: a name like "constructor" must not reach Object.prototype.
  return dialect !== undefined && Object.hasOwn(ADAPTERS, dialect) ? ADAPTERS[dialect] : undefined;
}
