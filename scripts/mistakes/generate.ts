/**
 * Writes fixtures/mistakes/<schema>.json from scripts/mistakes/specs.ts.
 *
 *   pnpm tsx --conditions=strictwire-source scripts/mistakes/generate.ts [--check]
 *
 * Refuses a spec whose text the codec accepts (a mistake that is not one) or
 * whose edit matches nothing, and prints each mistake with the code decode
 * returns today, for review. --check writes nothing and fails when the
 * committed files differ from what the specs give.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "@strictwire/codec/files";
import { buildCorpus } from "./build.js";
import { MISTAKES_DIR } from "./corpus.js";

function main(): number {
  const check = process.argv.includes("--check");
  const { files, built } = buildCorpus();
  for (const { mistake: m, code } of built) {
    const note = code === m.expectedCode ? "" : `  (the corpus expects ${m.expectedCode})`;
    console.error(`${m.kind.padEnd(18)} ${m.name.padEnd(34)} ${code}${note}`);
  }
  let stale = 0;
  for (const [schema, text] of files) {
    const file = join(MISTAKES_DIR, `${schema}.json`);
    if (!check) {
      const written = writeFileAtomic(file, text);
      if (!written.ok) throw new Error(`${file}: ${written.error.code}: ${written.error.message}`);
      continue;
    }
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {}
    if (current !== text) {
      console.error(`stale: ${file}`);
      stale++;
    }
  }
  const summary = check ? (stale ? `, ${stale} stale` : ", up to date") : "";
  console.error(`${built.length} mistakes over ${files.size} schemas${summary}`);
  return stale ? 1 : 0;
}

process.exitCode = main();
