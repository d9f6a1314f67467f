/**
 * Many inputs for `compile --out-dir`: files as named, the schema files of a
 * directory, and quoted glob patterns. Bundles (`*.bundle.json`) are never
 * taken for schemas, so that compiling a directory into itself stays safe to
 * repeat.
 */
import { readdir, stat } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { errorCode, notFound, type Outcome, succeed, systemReason, unreadable, usage } from "./failure.js";
import { glob, hasMagic } from "./glob.js";

export const BUNDLE_SUFFIX = ".bundle.json";

/** `name` in `dir` as the kernel reads `dir`, where its listing came from: path.join would cancel "link/.." by spelling. */
export const inDir = (dir: string, name: string): string =>
  dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;

const isSchemaFile = (name: string): boolean => name.endsWith(".json") && !name.endsWith(BUNDLE_SUFFIX);

export async function expandInputs(args: readonly string[]): Promise<Outcome<string[]>> {
  if (args.length === 0) return usage("--out-dir needs the schema files, directories or globs to compile");
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    const key = resolve(file);
    if (!seen.has(key)) {
      seen.add(key);
      files.push(file);
    }
  };
  for (const arg of args) {
    if (arg === "-") return usage("--out-dir names each bundle after its schema file; standard input has no file name");
    const expanded = await expandOne(arg);
    if (!expanded.ok) return expanded;
    expanded.value.forEach(add);
  }
  if (files.length === 0) return usage(`no schema files (*.json) found in ${args.join(", ")}`);
  return succeed(files);
}

async function expandOne(arg: string): Promise<Outcome<string[]>> {
  let isDir: boolean;
  try {
    isDir = (await stat(arg)).isDirectory();
  } catch (error) {
    if (errorCode(error) !== "ENOENT") return unreadable(arg, systemReason(error));
    if (!hasMagic(arg)) return notFound(arg);
    const matched = (await glob(arg)).filter((file) => !file.endsWith(BUNDLE_SUFFIX));
    return matched.length > 0 ? succeed(matched) : usage(`no files match ${arg}`);
  }
  if (!isDir) return succeed([arg]);
  try {
    const names = (await readdir(arg, { withFileTypes: true }))
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && isSchemaFile(e.name))
      .map((e) => e.name)
      .sort();
    return succeed(names.map((name) => inDir(arg, name)));
  } catch (error) {
    return unreadable(arg, systemReason(error));
  }
}
