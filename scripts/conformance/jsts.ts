/**
 * JSON-Schema-Test-Suite, draft 2020-12 (optional/ included). The suite's
 * remote documents (remotes/, served at http://localhost:1234/ in the suite's
 * own runners) are handed to compile as `resources`, never fetched, and so
 * are the draft 2020-12 meta-schemas, from the copies ajv ships. Each group
 * compiles with openObjects "preserve"; a refused group's assertions are excluded under the
 * refusal code. In a compiled group every valid instance must round-trip and
 * every invalid one must be refused by encode. An assertion on which the
 * codec's own validator disagrees with the suite is excluded as
 * "validator-disagrees" and listed: it is not a wire failure.
 */
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { type DepthSummary, emptyDepth, recordDepth } from "./depth.js";
import {
  bump,
  type Crash,
  Examples,
  excerpt,
  isCrash,
  roundTrip,
  type Tally,
  tryCompile,
  tryEncode,
  verdict,
} from "./harness.js";
import { type CaseLog, listFiles, type ProgressSink, readText } from "./io.js";
import { LIMIT_CODES } from "./limits.js";
import { emptyWireRules, recordWireRules, type WireRulesSummary } from "./wire-rules.js";

export interface JstsSummary {
  groups: number;
  assertions: number;
  included: number;
  excluded: number;
  passed: number;
  failed: number;
  crashed: number;
  groupsCompiled: number;
  groupsRefused: number;
  /** Compiled groups whose plan sends some position as any JSON value. */
  groupsWithAnyFallback: number;
  /** Compiled groups by what sent a position to the any-JSON form: "keyword: reason". */
  anyFallbackCauses: Tally;
  excludedByReason: Tally;
  excludedByFile: Record<string, Tally>;
  validatorDisagrees: { validRejected: number; invalidAccepted: number; byFile: Record<string, Tally> };
  invalidRefusedBy: Tally;
  failures: unknown[];
  crashes: unknown[];
  disagreementExamples: Record<string, unknown[]>;
  depth: DepthSummary;
  /** OpenAI rules beyond the limits (the first-key rule), on every compiled wire. */
  wireRules: WireRulesSummary;
}

interface Group {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

/** The suite's remote documents, keyed by the URI its runners serve them at. */
function remoteDocuments(corpora: string): Map<string, unknown> {
  const dir = join(corpora, "json-schema-test-suite/remotes");
  const out = new Map<string, unknown>();
  for (const file of listFiles(dir, ".json")) {
    out.set(`http://localhost:1234/${file.split(sep).join("/")}`, JSON.parse(readText(join(dir, file))));
  }
  return out;
}

/** The draft 2020-12 meta-schema and its vocabularies, keyed by their own $id: ajv's copies, never fetched. */
function metaSchemas(): Map<string, unknown> {
  const require = createRequire(new URL("../../packages/codec/package.json", import.meta.url));
  const dir = join(dirname(require.resolve("ajv/package.json")), "dist/refs/json-schema-2020-12");
  const out = new Map<string, unknown>();
  for (const file of ["schema.json", ...listFiles(join(dir, "meta"), ".json").map((f) => `meta/${f}`)]) {
    const doc = JSON.parse(readText(join(dir, file))) as { $id: string };
    out.set(doc.$id, doc);
  }
  return out;
}

export function runJsts(corpora: string, log: CaseLog, progress: ProgressSink): JstsSummary {
  const dir = join(corpora, "json-schema-test-suite/tests/draft2020-12");
  const files = listFiles(dir, ".json");
  const resources = new Map([...remoteDocuments(corpora), ...metaSchemas()]);
  const s: JstsSummary = {
    groups: 0,
    assertions: 0,
    included: 0,
    excluded: 0,
    passed: 0,
    failed: 0,
    crashed: 0,
    groupsCompiled: 0,
    groupsRefused: 0,
    groupsWithAnyFallback: 0,
    anyFallbackCauses: {},
    excludedByReason: {},
    excludedByFile: {},
    validatorDisagrees: { validRejected: 0, invalidAccepted: 0, byFile: {} },
    invalidRefusedBy: {},
    failures: [],
    crashes: [],
    disagreementExamples: {},
    depth: emptyDepth(),
    wireRules: emptyWireRules(),
  };
  const disagreements = new Examples<unknown>(3);

  const exclude = (file: string, reason: string, n: number): void => {
    s.excluded += n;
    bump(s.excludedByReason, reason, n);
    s.excludedByFile[file] ??= {};
    bump(s.excludedByFile[file], reason, n);
  };
  const crashed = (where: Record<string, unknown>, crash: Crash): void => {
    s.crashed++;
    s.crashes.push({ ...where, ...crash });
    process.stderr.write(`conformance: CRASH in ${crash.stage} at ${JSON.stringify(where)}: ${crash.message}\n`);
  };

  files.forEach((file, fileIndex) => {
    progress.update(`JSON-Schema-Test-Suite ${file}`, fileIndex, files.length);
    const groups = JSON.parse(readText(join(dir, file))) as Group[];
    groups.forEach((group, gi) => {
      s.groups++;
      s.assertions += group.tests.length;
      const where = { file, group: gi, description: group.description };
      const compiled = tryCompile(group.schema, { openObjects: "preserve", resources });
      recordDepth(s.depth, `${file}#${gi}`, group.schema, compiled);
      recordWireRules(s.wireRules, `${file}#${gi}`, compiled);
      if (compiled.kind === "refused") {
        s.groupsRefused++;
        exclude(file, compiled.code, group.tests.length);
        log.write({ corpus: "jsts", ...where, outcome: "refused", code: compiled.code, message: compiled.message });
        return;
      }
      if (compiled.kind === "crashed") {
        // A crash is a bug: every assertion of the group counts as included and failed.
        crashed(where, compiled.crash);
        s.included += group.tests.length;
        s.failed += group.tests.length;
        log.write({ corpus: "jsts", ...where, outcome: "crashed", crash: compiled.crash });
        return;
      }
      s.groupsCompiled++;
      if (compiled.anyFallbacks.length > 0) s.groupsWithAnyFallback++;
      const causes = compiled.anyFallbacks.filter((f) => f.cause !== undefined).map((f) => `${f.keyword}: ${f.cause}`);
      for (const k of new Set(causes)) bump(s.anyFallbackCauses, k);
      const codec = compiled.codec;
      group.tests.forEach((test, ti) => {
        const at = { ...where, test: ti, testDescription: test.description, valid: test.valid };
        const v = verdict(codec, test.data);
        if (isCrash(v)) {
          crashed(at, v);
          s.included++;
          s.failed++;
          log.write({ corpus: "jsts", ...at, outcome: "crashed", crash: v });
          return;
        }
        if (v !== test.valid) {
          exclude(file, "validator-disagrees", 1);
          if (test.valid) s.validatorDisagrees.validRejected++;
          else s.validatorDisagrees.invalidAccepted++;
          s.validatorDisagrees.byFile[file] ??= {};
          bump(s.validatorDisagrees.byFile[file], test.valid ? "validRejected" : "invalidAccepted");
          disagreements.add(file, { ...at, data: excerpt(test.data, 120) });
          log.write({ corpus: "jsts", ...at, outcome: "validator-disagrees" });
          return;
        }
        if (test.valid) {
          const rt = roundTrip(codec, test.data);
          if (rt.kind === "refused" && LIMIT_CODES.has(rt.code)) {
            // A clean refusal at encode of a value the decoder could not read back exactly: a limit, listed apart.
            exclude(file, "beyond-decoder-limits", 1);
            log.write({ corpus: "jsts", ...at, outcome: "beyond-decoder-limits", code: rt.code });
            return;
          }
          s.included++;
          if (rt.kind === "round-tripped") {
            s.passed++;
            log.write({ corpus: "jsts", ...at, outcome: "passed" });
            return;
          }
          s.failed++;
          if (rt.kind === "crashed") crashed(at, rt.crash);
          const failure = { ...at, data: excerpt(test.data), ...describe(rt) };
          s.failures.push(failure);
          log.write({ corpus: "jsts", ...failure, outcome: "failed" });
          return;
        }
        s.included++;
        const enc = tryEncode(codec, test.data);
        if (enc.kind === "refused") {
          s.passed++;
          bump(s.invalidRefusedBy, enc.code);
          log.write({ corpus: "jsts", ...at, outcome: "passed", code: enc.code });
          return;
        }
        s.failed++;
        if (enc.kind === "crashed") crashed(at, enc.crash);
        const failure = { ...at, data: excerpt(test.data), result: enc.kind === "accepted" ? "encode accepted" : enc };
        s.failures.push(failure);
        log.write({ corpus: "jsts", ...failure, outcome: "failed" });
      });
    });
  });
  progress.clear();
  s.disagreementExamples = disagreements.toJSON();
  return s;
}

/** A failed round trip, for the report. */
export function describe(rt: ReturnType<typeof roundTrip>): Record<string, unknown> {
  switch (rt.kind) {
    case "refused":
      return { result: "encode refused", code: rt.code, message: rt.message };
    case "decode-refused":
      return { result: "decode refused", code: rt.code, message: rt.message, wire: excerpt(rt.wire, 300) };
    case "mismatch":
      return { result: "decoded differently", decoded: excerpt(rt.decoded), wire: excerpt(rt.wire, 300) };
    case "crashed":
      return { result: "crashed", crash: rt.crash };
    default:
      return { result: rt.kind };
  }
}
