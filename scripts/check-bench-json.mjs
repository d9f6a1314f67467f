#!/usr/bin/env node
/**
 * CI's check of the benchmark's output contract: standard input must be
 * exactly one JSON object with the members `pnpm bench --quick --json`
 * promises, each a finite positive ratio (argument tokens: also the per-set
 * breakdown's shape, counts and means; the peers' decode: also the calls each
 * was timed on and left out; classify at log scale: each run's figures, on
 * one worker and on every CPU). Whether a goal is met is reported
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
    "streaming.callsFloor",
    "streaming.largeFloor",
    "streamDecoder.calls",
    "streamDecoder.large",
    "streamDecoder.largeFloor",
    "streamDecoder.callsVsFloor",
    "streamDecoder.largeVsFloor",
    "streamDecoder.anyJsonVsFloor",
    "streamDecoder.callsAiSdkPartial",
  ];
  for (const text of ["enumValue", "memberName", "longString", "containers", "anyJson"])
    wanted.push(`streamScaling.slopes.${text}`);
  for (const mode of ["tagged", "compact", "factored"])
    wanted.push(`expansion.${mode}.bytes`, `expansion.${mode}.tokens`);
  for (const form of ["tagged", "compact", "factored"]) wanted.push(`argumentTokens.${form}`);
  for (const peer of ["agentsCore", "mastra"]) wanted.push(`decodePeers.${peer}`);
  for (const member of ["scaling", "peakRssMB", "callsPerSecondOneWorker", "callsPerCpuSecondOneWorker"])
    wanted.push(`classify.${member}`);
  const values = Object.fromEntries(wanted.map((p) => [p, ratio(p)]));
  checkArgumentBreakdown(doc.argumentTokensDetail);
  checkPeers(doc.decodePeersDetail);
  checkClassify(doc.classify);
  checkBundleSize(doc.bundleSize);
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

/** classify at log scale: every row a run that finished (exit 0 or 1) with its figures, on one worker and on every CPU. */
function checkClassify(detail) {
  const rows = detail?.rows;
  if (!Array.isArray(rows) || rows.length === 0) {
    problems.push(`classify.rows: expected the runs, got ${JSON.stringify(rows)}`);
    return;
  }
  for (const [i, row] of rows.entries()) {
    for (const member of [
      "bytes",
      "records",
      "calls",
      "seconds",
      "callsPerSecond",
      "cpuSeconds",
      "callsPerCpuSecond",
      "peakRssMB",
    ])
      if (typeof row?.[member] !== "number" || !Number.isFinite(row[member]) || row[member] <= 0)
        problems.push(
          `classify.rows[${i}].${member}: expected a positive number, got ${JSON.stringify(row?.[member])}`,
        );
    if (row?.exit !== 0 && row?.exit !== 1)
      problems.push(`classify.rows[${i}].exit: expected 0 or 1 (a finished run), got ${JSON.stringify(row?.exit)}`);
  }
  if (!rows.some((row) => row?.workers === 1) || !rows.some((row) => row?.workers === detail.cores))
    problems.push(`classify.rows: expected runs on 1 worker and on all ${detail?.cores} CPUs`);
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

/** The browser bundle's figures: sizes in bytes, the one with a pattern the larger (the RE2 engine in it). */
function checkBundleSize(b) {
  for (const path of ["runtime", "noPattern", "pattern"])
    for (const member of ["minified", "gzip"]) ratio(`bundleSize.${path}.${member}`);
  if (b !== undefined && !(b.pattern?.gzip > b.noPattern?.gzip))
    problems.push(
      "bundleSize: the tool with a pattern should weigh more than the one without (RE2 comes in only then)",
    );
}

if (problems.length > 0) {
  process.stderr.write(`bench output contract broken:\n- ${problems.join("\n- ")}\n`);
  process.exit(1);
}
