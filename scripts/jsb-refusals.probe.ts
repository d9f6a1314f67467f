// Temporary probe (not committed): JSONSchemaBench compile outcomes with default options.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@strictwire/codec";
import { readText } from "./conformance/io.js";

const dir = "/work/shared/corpora/jsonschemabench";
const out: unknown[] = [];
let n = 0,
  ok = 0;
for (const f of readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl.gz"))
  .sort()) {
  for (const line of readText(join(dir, f)).split("\n")) {
    if (line.trim() === "") continue;
    let j: { id?: string; schema?: unknown };
    try {
      j = JSON.parse(line);
    } catch {
      continue;
    }
    n++;
    let r;
    try {
      r = compile(j.schema, {});
    } catch (e) {
      out.push({ f, id: j.id, code: "THREW", message: String(e) });
      continue;
    }
    if (r.ok) ok++;
    else out.push({ f, id: j.id, code: r.error.code, path: r.error.path, message: r.error.message });
  }
}
writeFileSync(process.argv[2]!, out.map((x) => JSON.stringify(x)).join("\n") + "\n");
console.log(n, ok);
