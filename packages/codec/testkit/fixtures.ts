/** Loads the project's fixture corpus (fixtures/ at the repository root). */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CompileOptions } from "@strictwire/codec";

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../../../fixtures");

export interface SchemaFixture {
  readonly name: string;
  readonly description: string;
  readonly constructs: readonly string[];
  readonly options?: CompileOptions;
  readonly schema: unknown;
  readonly valid: readonly unknown[];
  readonly invalid: readonly { value: unknown; why: string }[];
}

export interface HostileCase {
  readonly name: string;
  readonly text?: string;
  readonly base64?: string;
  readonly expect: string;
  readonly path?: string;
}

export function schemaFixtures(): SchemaFixture[] {
  const dir = join(FIXTURES, "schemas");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({
      name: f.slice(0, -5),
      ...(JSON.parse(readFileSync(join(dir, f), "utf8")) as Omit<SchemaFixture, "name">),
    }));
}

export function hostileCases(name: string): HostileCase[] {
  try {
    return JSON.parse(readFileSync(join(FIXTURES, "hostile", `${name}.json`), "utf8")) as HostileCase[];
  } catch {
    return [];
  }
}

export function rawInput(c: HostileCase): string | Uint8Array {
  return c.base64 !== undefined ? new Uint8Array(Buffer.from(c.base64, "base64")) : (c.text ?? "");
}
