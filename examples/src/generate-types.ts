/**
 * Writes src/generated/<tool>.d.ts: the TypeScript declarations of each
 * tool's original contract, which type the handlers. This is what
 * `strictwire compile <schema> --emit types` writes; the examples call the
 * library's emitter directly so they need no CLI build.
 *
 *   pnpm --filter @strictwire/examples types          write the files
 *   pnpm --filter @strictwire/examples types --check  exit 1 if any is stale
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile, emitTypes } from "@strictwire/codec";
import { writeFileAtomic } from "@strictwire/codec/files";
import { schemaOf, TOOL_NAMES, type ToolName } from "./tools.js";

export function declarationsOf(name: ToolName): string {
  const bundle = compile(schemaOf(name), { name });
  if (!bundle.ok) throw new Error(`${name}: ${bundle.error.message}`);
  const types = emitTypes(bundle.value);
  if (!types.ok) throw new Error(`${name}: ${types.error.message}`);
  return types.value;
}

export function generatedPath(name: ToolName): string {
  return fileURLToPath(new URL(`./generated/${name}.d.ts`, import.meta.url));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const name of TOOL_NAMES) {
    const text = declarationsOf(name);
    const path = generatedPath(name);
    let current: string | undefined;
    try {
      current = readFileSync(path, "utf8");
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    if (check) {
      stale++;
      console.error(`stale: ${path}`);
    } else {
      const written = writeFileAtomic(path, text);
      if (!written.ok) throw new Error(`${path}: ${written.error.code}: ${written.error.message}`);
      console.log(`wrote ${path}`);
    }
  }
  process.exitCode = stale > 0 ? 1 : 0;
}
