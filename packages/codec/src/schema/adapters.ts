/** Input dialect adapters: schemas that are almost JSON Schema, made into it before anything else reads them. */
import type { Adapter } from "./prepare.js";

const ADAPTERS: Record<string, Adapter> = {};

export function registerAdapter(name: string, adapter: Adapter): void {
  ADAPTERS[name] = adapter;
}

export function adapterFor(dialect: string | undefined): Adapter | undefined {
  return dialect === undefined ? undefined : ADAPTERS[dialect];
}
