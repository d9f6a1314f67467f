#!/usr/bin/env node
/**
 * CI's check of the benchmark's output contract: standard input must be
 * exactly one JSON object with the members `pnpm bench --quick --json`
 * promises, each a finite positive ratio (argument tokens: also the per-set
 * breakdown's shape, counts and means; the peers' decode: also the calls each
 * was timed on and left out). Whether a goal is met is reported
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
  const wanted = [
    "decodeVsBaseline",
    "decodeVsBaselineCompact",
    "decodeReferences.floor",
    "decodeReferences.strictFloor",
    "parseVsJsonParse",
    "streaming.calls",
    "streaming.callsPushOnly",
    "streaming.large",
    "streaming.largePushOnly",
  ];
  for (const mode of ["tagged", "compact", "factored"])
    wanted.push(`expansion.${mode}.bytes`, `expansion.${mode}.tokens`);
  for (const form of ["tagged", "compact", "factored"]) wanted.push(`argumentTokens.${form}`);
  for (const peer of ["agentsCore", "mastra"]) wanted.push(`decodePeers.${peer}`);
  const values = Object.fromEntries(wanted.map((p) => [p, ratio(p)]));
  checkArgumentBreakdown(doc.argumentTokensDetail);
  checkPeers(doc.decodePeersDetail);
  if (problems.length === 0) {
    const met = doc.goals?.met ?? {};
    process.stdout.write(
      `bench --quick --json: ${Object.entries(values)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(", ")}\ngoals met: ${JSON.stringify(met)}\n`,
    );
  }
}

/** The per-set breakdown: calls counted, and for each form the mean tokens and both aggregates. */
function checkArgumentBreakdown(detail) {
  const bySet = detail?.bySet;
  for (const set of ["bfcl", "mcp"]) {
    const s = bySet?.[set];
    if (!Number.isInteger(s?.calls) || s.calls <= 0)
      problems.push(
        `argumentTokensDetail.bySet.${set}.calls: expected a positive count, got ${JSON.stringify(s?.calls)}`,
      );
    for (const form of ["tagged", "compact", "factored"])
      for (const member of ["meanSource", "meanWire", "ratioOfMeans", "geomeanRatio"])
        ratio(`argumentTokensDetail.bySet.${set}.forms.${form}.${member}`);
  }
  const excluded = detail?.excluded;
  if (excluded === null || typeof excluded !== "object" || !Object.values(excluded).every(Number.isInteger))
    problems.push(`argumentTokensDetail.excluded: expected counts by reason, got ${JSON.stringify(excluded)}`);
}

/** Each peer: the calls it was timed on, those left out by reason, and its ratios beside strictwire's on the same calls. */
function checkPeers(detail) {
  for (const peer of ["agentsCore", "mastra"]) {
    const d = detail?.[peer];
    if (!Number.isInteger(d?.cases) || d.cases <= 0)
      problems.push(`decodePeersDetail.${peer}.cases: expected a positive count, got ${JSON.stringify(d?.cases)}`);
    const left = d?.leftOut;
    if (left === null || typeof left !== "object" || !Object.values(left).every(Number.isInteger))
      problems.push(`decodePeersDetail.${peer}.leftOut: expected counts by reason, got ${JSON.stringify(left)}`);
    for (const member of ["geomean", "strictwireTagged", "strictwireCompact", "aheadTagged", "aheadCompact"])
      ratio(`decodePeersDetail.${peer}.${member}`);
    if (d !== undefined && doc.decodePeers?.[peer] !== d.geomean)
      problems.push(`decodePeers.${peer}: expected decodePeersDetail.${peer}.geomean`);
  }
}

if (problems.length > 0) {
  process.stderr.write(`bench output contract broken:\n- ${problems.join("\n- ")}\n`);
  process.exit(1);
}
