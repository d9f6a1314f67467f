/**
 * pnpm feedback-score: how often the codec's feedback names the cause of a
 * plausible model mistake (the corpus in fixtures/mistakes/).
 *
 *   pnpm feedback-score                  # per mistake, then the share by kind and overall
 *   pnpm feedback-score --json           # one JSON document
 *   pnpm feedback-score --show-feedback  # also print the feedback of every miss
 *
 * A mistake's feedback names the cause when it contains every fact the corpus
 * states (path, rule with its bound, offending value, allowed values...).
 * This reports; it never fails on the figures. Exit 2 for bad arguments, 1
 * when the corpus itself is broken (a schema that does not compile, a text
 * decode accepts).
 */
import { parseArgs } from "node:util";
import { type Codec, compileCodec } from "@strictwire/codec";
import {
  FEEDBACK_LIMIT,
  KINDS,
  type LoadedMistake,
  loadMistakes,
  type Score,
  scoreMistake,
} from "./mistakes/corpus.js";

const USAGE = "usage: pnpm feedback-score [--json] [--show-feedback]";

interface Tally {
  readonly mistakes: number;
  readonly namesCause: number;
  readonly withinLimit: number;
  readonly codeMatches: number;
  /** Of the mistakes with a path fact, how many name it. */
  readonly pathNamed: string;
  /** Every mention present, the path aside. */
  readonly mentionsOnly: number;
  readonly share: number;
}

function tally(scores: readonly Score[]): Tally {
  const n = scores.length;
  const namesCause = scores.filter((s) => s.namesCause).length;
  return {
    mistakes: n,
    namesCause,
    withinLimit: scores.filter((s) => s.withinLimit).length,
    codeMatches: scores.filter((s) => s.codeMatches).length,
    pathNamed: pathShare(scores),
    mentionsOnly: scores.filter((s) => s.facts.every((f) => f.present || f.fact.startsWith("path "))).length,
    share: n === 0 ? 0 : namesCause / n,
  };
}

function pathShare(scores: readonly Score[]): string {
  const withPath = scores.filter((s) => s.facts.some((f) => f.fact.startsWith("path ")));
  const named = withPath.filter((s) => s.facts.some((f) => f.fact.startsWith("path ") && f.present));
  return `${named.length}/${withPath.length}`;
}

function score(corpus: readonly LoadedMistake[]): { scores: Score[]; broken: string[] } {
  const codecs = new Map<string, Codec | string>();
  const scores: Score[] = [];
  const broken: string[] = [];
  for (const m of corpus) {
    const key = `${m.schemaName} ${JSON.stringify(m.compileOptions)}`;
    let codec = codecs.get(key);
    if (codec === undefined) {
      const compiled = compileCodec(m.schema, m.compileOptions);
      codec = compiled.ok ? compiled.value : compiled.error.message;
      codecs.set(key, codec);
    }
    if (typeof codec === "string") {
      broken.push(`${m.name}: ${m.schemaName} does not compile: ${codec}`);
      continue;
    }
    const decoded = codec.decode(m.text);
    if (decoded.ok) broken.push(`${m.name}: decode accepts the text`);
    scores.push(scoreMistake(m, decoded.ok ? null : decoded.error));
  }
  return { scores, broken };
}

const pct = (part: number, whole: number): string => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(0)}%`);

function printText(scores: readonly Score[], showFeedback: boolean): void {
  for (const s of scores) {
    const missing = s.facts.filter((f) => !f.present).map((f) => f.fact);
    const marks = [
      s.namesCause ? "ok  " : "MISS",
      s.codeMatches ? "" : ` code ${s.code} (expected ${s.expectedCode})`,
      s.withinLimit ? "" : ` ${s.feedbackLength} chars`,
    ].join("");
    console.log(`${marks.slice(0, 4)} ${s.kind.padEnd(17)} ${s.name.padEnd(32)}${marks.slice(4)}`);
    if (missing.length > 0) console.log(`     missing: ${missing.join("; ")}`);
    if (showFeedback && !s.namesCause) console.log(`     feedback: ${s.feedback}`);
  }
  console.log("");
  console.log(
    `${"kind".padEnd(18)} ${"n".padStart(3)}  names cause  ≤${FEEDBACK_LIMIT} chars  code matches  path named  mentions only`,
  );
  const row = (label: string, t: Tally) =>
    console.log(
      `${label.padEnd(18)} ${String(t.mistakes).padStart(3)}  ${`${t.namesCause} (${pct(t.namesCause, t.mistakes)})`.padEnd(11)}  ${pct(t.withinLimit, t.mistakes).padEnd(11)}  ${pct(t.codeMatches, t.mistakes).padEnd(12)}  ${t.pathNamed.padEnd(10)}  ${t.mentionsOnly} (${pct(t.mentionsOnly, t.mistakes)})`,
    );
  for (const kind of KINDS) row(kind, tally(scores.filter((s) => s.kind === kind)));
  row("overall", tally(scores));
}

function main(): number {
  let args: { json?: boolean; "show-feedback"?: boolean; help?: boolean };
  try {
    args = parseArgs({
      options: { json: { type: "boolean" }, "show-feedback": { type: "boolean" }, help: { type: "boolean" } },
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const { scores, broken } = score(loadMistakes());
  if (args.json) {
    const byKind = Object.fromEntries(KINDS.map((k) => [k, tally(scores.filter((s) => s.kind === k))]));
    console.log(JSON.stringify({ overall: tally(scores), byKind, broken, mistakes: scores }, null, 2));
  } else {
    printText(scores, args["show-feedback"] === true);
    for (const b of broken) console.error(`corpus bug: ${b}`);
  }
  return broken.length > 0 ? 1 : 0;
}

// Piped into head: stop quietly when the reader goes away.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});
process.exitCode = main();
