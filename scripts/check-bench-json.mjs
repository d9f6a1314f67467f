#!/usr/bin/env node
/**
 * CI's check of the benchmark's output contract: standard input must be
 * exactly one JSON object with the members `pnpm bench --quick --json`
 * promises, each a finite positive ratio. Whether a goal is met is reported
 * by the benchmark itself, not enforced here: timings on shared machines are
 * not pass/fail material.
 */
let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;

const problems = [];
let doc;
try {
  doc = JSON.parse(text);
} catch (error) {
  problems.push(`stdout is not one JSON document (${error.message}); first 200 characters: ${text.slice(0, 200)}`);
}

function ratio(path) {
  let v = doc;
  for (const k of path.split(".")) v = v !== null && typeof v === "object" ? v[k] : undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0)
    problems.push(`${path}: expected a positive ratio, got ${JSON.stringify(v)}`);
  return v;
}

if (doc !== undefined) {
  const wanted = ["decodeVsBaseline", "parseVsJsonParse"];
  for (const mode of ["tagged", "compact", "factored"])
    wanted.push(`expansion.${mode}.bytes`, `expansion.${mode}.tokens`);
  const values = Object.fromEntries(wanted.map((p) => [p, ratio(p)]));
  if (problems.length === 0) {
    const met = doc.goals?.met ?? {};
    process.stdout.write(
      `bench --quick --json: ${Object.entries(values)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(", ")}\ngoals met: ${JSON.stringify(met)}\n`,
    );
  }
}

if (problems.length > 0) {
  process.stderr.write(`bench output contract broken:\n- ${problems.join("\n- ")}\n`);
  process.exit(1);
}
