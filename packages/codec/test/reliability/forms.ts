/**
 * A schema's codec in each form a codec exists in: a bundle object, a JSON
 * bundle (validators compiled at load), and a generated module (validators
 * carried as code). The modules live under test/.tmp so that they resolve
 * `@strictwire/codec/runtime/module`; `removeModules` clears them.
 */
import { mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type Codec,
  type CompileOptions,
  compile,
  loadBundle,
  type Result,
  standaloneModule,
} from "../../src/index.js";

const TMP = join(dirname(fileURLToPath(import.meta.url)), "..", ".tmp");
let dir: string | undefined;
let written = 0;

export async function codecForms(schema: unknown, options: CompileOptions = {}): Promise<[string, Codec][]> {
  const bundle = compile(schema, { name: "t", ...options });
  if (!bundle.ok) throw new Error(`compile: ${bundle.error.code} ${bundle.error.message}`);
  const inMemory = loadBundle(bundle.value);
  if (!inMemory.ok) throw new Error(`load: ${inMemory.error.message}`);
  const fromJson = loadBundle(JSON.stringify(bundle.value));
  if (!fromJson.ok) throw new Error(`load: ${fromJson.error.message}`);
  const text = standaloneModule(bundle.value);
  if (!text.ok) throw new Error(`module: ${text.error.message}`);
  if (dir === undefined) {
    mkdirSync(TMP, { recursive: true });
    dir = mkdtempSync(join(TMP, "forms-"));
  }
  const file = join(dir, `m${written++}.mjs`);
  writeFileSync(file, text.value);
  const mod = (await import(pathToFileURL(file).href)) as { load(): Result<Codec> };
  const fromModule = mod.load();
  if (!fromModule.ok) throw new Error(`module load: ${fromModule.error.message}`);
  return [
    ["bundle object", inMemory.value],
    ["JSON bundle", fromJson.value],
    ["module", fromModule.value],
  ];
}

export function removeModules(): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  try {
    rmdirSync(TMP);
  } catch {
    // Another test's modules are still there.
  }
}
