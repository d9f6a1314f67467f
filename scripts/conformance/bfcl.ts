/**
 * Berkeley Function Calling Leaderboard. Every unique function schema (by
 * canonical JSON of name, description and parameters) from the question files
 * and multi_turn_func_doc/ compiles with dialect "bfcl". Each ground-truth call
 * in possible_answer/ becomes one concrete call (first acceptable value per
 * parameter; a parameter whose acceptable values include "" is left out) and
 * must round-trip exactly through the schema of the function of that name in
 * the same question. A call the schema itself rejects (BFCL answers are
 * sometimes loose) is counted as "answer invalid under its own schema".
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CompileOptions } from "@strictwire/codec";
import { bfclToJsonSchema } from "../../packages/codec/src/schema/adapters/bfcl.js";
import { type DepthSummary, emptyDepth, recordDepth } from "./depth.js";
import {
  bump,
  type Compiled,
  type Crash,
  canonicalJson,
  Examples,
  excerpt,
  isCrash,
  roundTrip,
  type Tally,
  toolName,
  tryCompile,
  verdict,
} from "./harness.js";
import { type CaseLog, listFiles, type ProgressSink, readJsonLines, readText } from "./io.js";
import { describe } from "./jsts.js";
import { type PyCall, parsePyCall } from "./pycall.js";
import { emptyWireRules, recordWireRules, type WireRulesSummary } from "./wire-rules.js";

export interface AnswerCounts {
  answers: number;
  roundTripped: number;
  answerInvalid: number;
  schemaRefused: number;
  schemaMissing: number;
  failed: number;
  /** Calls with members their schema does not declare, carried by an openObjects "preserve" compile. */
  preserveUsed: number;
  /** Such calls whose preserve compile is refused: counted apart, like a refused schema. */
  preserveRefused: number;
}

export interface BfclSummary extends AnswerCounts {
  schemas: number;
  compiled: number;
  refusedBy: Tally;
  crashed: number;
  withAnyFallback: number;
  /** Unique schemas the adapter changed at all (every `dict` root counts). */
  adapted: number;
  /** What the adapter changed, summed over the unique schemas: one count per schema position. */
  adapterChanges: Tally;
  /** Type names met in the unique schemas' parameters, before the adapter. */
  typeNames: Tally;
  functionsSeen: number;
  /** Wire depth against source depth (the source: the adapter's JSON Schema form). */
  depth: DepthSummary;
  /** OpenAI rules beyond the limits (the first-key rule), on every compiled wire. */
  wireRules: WireRulesSummary;
  answersByFile: Record<string, AnswerCounts>;
  /** Multi-turn ground truth: Python call text, against the function docs of the question's classes. */
  multiTurn: AnswerCounts & { unparsed: number; byFile: Record<string, AnswerCounts & { unparsed: number }> };
  /** Answer lines that are not calls (final-answer text of the memory and web-search sets). */
  notCallAnswers: Record<string, number>;
  /** Files read for nothing, and why. */
  ignoredFiles: Record<string, string>;
  refusalExamples: Record<string, unknown[]>;
  invalidExamples: unknown[];
  failures: unknown[];
  crashes: unknown[];
}

interface BfclFunction {
  name?: unknown;
  description?: unknown;
  parameters?: unknown;
}

function emptyCounts(): AnswerCounts {
  return {
    answers: 0,
    roundTripped: 0,
    answerInvalid: 0,
    schemaRefused: 0,
    schemaMissing: 0,
    failed: 0,
    preserveUsed: 0,
    preserveRefused: 0,
  };
}

/** The identity of a function schema: what compile is given. */
function keyOf(fn: BfclFunction): string {
  return canonicalJson({ name: fn.name, description: fn.description, parameters: fn.parameters });
}

export function runBfcl(corpora: string, log: CaseLog, progress: ProgressSink): BfclSummary {
  const dir = join(corpora, "bfcl");
  const s: BfclSummary = {
    ...emptyCounts(),
    schemas: 0,
    compiled: 0,
    refusedBy: {},
    crashed: 0,
    withAnyFallback: 0,
    adapted: 0,
    adapterChanges: {},
    typeNames: {},
    functionsSeen: 0,
    depth: emptyDepth(),
    wireRules: emptyWireRules(),
    answersByFile: {},
    multiTurn: { ...emptyCounts(), unparsed: 0, byFile: {} },
    notCallAnswers: {},
    ignoredFiles: {},
    refusalExamples: {},
    invalidExamples: [],
    failures: [],
    crashes: [],
  };
  const refusals = new Examples<unknown>(5);
  const crashed = (where: Record<string, unknown>, crash: Crash): void => {
    s.crashed++;
    s.crashes.push({ ...where, ...crash });
    process.stderr.write(`conformance: CRASH in ${crash.stage} at ${JSON.stringify(where)}: ${crash.message}\n`);
  };

  // ---- function schemas ---------------------------------------------------
  const questions = new Map<string, Map<string, BfclFunction[]>>();
  const classesOf = new Map<string, Map<string, string[]>>();
  const unique = new Map<string, BfclFunction>();
  const take = (fn: unknown): void => {
    if (typeof fn !== "object" || fn === null) return;
    s.functionsSeen++;
    const key = keyOf(fn as BfclFunction);
    if (!unique.has(key)) unique.set(key, fn as BfclFunction);
  };
  for (const file of listFiles(dir, ".json.gz").filter((f) => !f.includes("/"))) {
    const entries = readJsonLines(join(dir, file));
    // A pretty-printed JSON document is not question lines: its first line does not parse on its own.
    if (entries[0]?.ok === false && parseWhole(readText(join(dir, file))) !== undefined) {
      s.ignoredFiles[file] = "one JSON document, not question lines (an index of question ids)";
      continue;
    }
    const byId = new Map<string, BfclFunction[]>();
    const classes = new Map<string, string[]>();
    let withFunctions = 0;
    for (const entry of entries) {
      if (!entry.ok) throw new Error(`bfcl: ${file} line ${entry.line} does not parse: ${entry.error}`);
      const q = entry.value as { id?: unknown; function?: unknown; involved_classes?: unknown };
      if (typeof q.id === "string" && Array.isArray(q.involved_classes))
        classes.set(
          q.id,
          q.involved_classes.filter((c): c is string => typeof c === "string"),
        );
      if (!Array.isArray(q.function)) continue;
      withFunctions++;
      if (typeof q.id === "string") byId.set(q.id, q.function as BfclFunction[]);
      for (const fn of q.function) take(fn);
    }
    if (withFunctions === 0 && classes.size === 0) s.ignoredFiles[file] = "neither function lists nor classes";
    questions.set(file, byId);
    classesOf.set(file, classes);
  }
  const docDir = join(dir, "multi_turn_func_doc");
  const docs = new Map<string, BfclFunction[]>();
  for (const file of existsSync(docDir) ? listFiles(docDir, ".json.gz") : []) {
    const list: BfclFunction[] = [];
    for (const entry of readJsonLines(join(docDir, file))) {
      if (!entry.ok) throw new Error(`bfcl: multi_turn_func_doc/${file} line ${entry.line} does not parse`);
      take(entry.value);
      list.push(entry.value as BfclFunction);
    }
    docs.set(file.replace(/\.json\.gz$/, ""), list);
  }

  const compiledByKey = new Map<string, Compiled>();
  let done = 0;
  for (const [key, fn] of unique) {
    progress.update("BFCL function schemas", done++, unique.size);
    s.schemas++;
    countTypeNames(fn.parameters, s.typeNames);
    const adapted = bfclToJsonSchema(fn.parameters);
    if (canonicalJson(adapted) !== canonicalJson(fn.parameters)) s.adapted++;
    countChanges(fn.parameters, adapted, s.adapterChanges);
    const c = tryCompile(fn.parameters, compileOptions(fn));
    compiledByKey.set(key, c);
    recordDepth(s.depth, String(fn.name), adapted, c);
    recordWireRules(s.wireRules, String(fn.name), c);
    const where = { function: fn.name };
    if (c.kind === "compiled") {
      s.compiled++;
      if (c.anyFallbacks.length > 0) s.withAnyFallback++;
      log.write({ corpus: "bfcl", ...where, outcome: "compiled", anyFallbacks: c.anyFallbacks.length });
    } else if (c.kind === "refused") {
      bump(s.refusedBy, c.code);
      refusals.add(c.code, { function: fn.name, path: c.path, message: excerpt(c.message, 300) });
      log.write({ corpus: "bfcl", ...where, outcome: "refused", code: c.code, path: c.path, message: c.message });
    } else {
      crashed(where, c.crash);
      log.write({ corpus: "bfcl", ...where, outcome: "crashed", crash: c.crash });
    }
  }
  progress.clear();

  // ---- ground-truth calls ---------------------------------------------------
  const preserveByKey = new Map<string, Compiled>();
  const preserveCompile = (fn: BfclFunction): Compiled => {
    const key = keyOf(fn);
    let c = preserveByKey.get(key);
    if (c === undefined) {
      c = tryCompile(fn.parameters, { ...compileOptions(fn), openObjects: "preserve" });
      preserveByKey.set(key, c);
    }
    return c;
  };
  /** One concrete call through its function's codec, counted into `counts`. */
  const check = (
    counts: AnswerCounts,
    where: Record<string, unknown>,
    fn: BfclFunction | undefined,
    args: () => Record<string, unknown>,
  ): void => {
    counts.answers++;
    if (fn === undefined) {
      counts.schemaMissing++;
      log.write({ corpus: "bfcl", ...where, outcome: "schema-missing" });
      return;
    }
    const compiled = compiledByKey.get(keyOf(fn));
    if (compiled === undefined || compiled.kind !== "compiled") {
      counts.schemaRefused++;
      log.write({ corpus: "bfcl", ...where, outcome: "schema-refused" });
      return;
    }
    const call = args();
    const v = verdict(compiled.codec, call);
    if (isCrash(v)) {
      crashed(where, v);
      counts.failed++;
      return;
    }
    if (!v) {
      counts.answerInvalid++;
      const why = compiled.codec.validate(call);
      const example = { ...where, args: excerpt(call, 200), why: why.ok ? "" : excerpt(why.error.message, 200) };
      if (s.invalidExamples.length < 20) s.invalidExamples.push(example);
      log.write({ corpus: "bfcl", ...example, outcome: "answer-invalid" });
      return;
    }
    let rt = roundTrip(compiled.codec, call);
    if (rt.kind === "refused" && rt.code === "undeclared-member") {
      // As for JSONSchemaBench: a call with undeclared members is held to a "preserve" compile.
      const preserve = preserveCompile(fn);
      if (preserve.kind !== "compiled") {
        counts.preserveRefused++;
        if (preserve.kind === "crashed") crashed(where, preserve.crash);
        log.write({
          corpus: "bfcl",
          ...where,
          outcome: "preserve-refused",
          code: preserve.kind === "refused" ? preserve.code : "crashed",
        });
        return;
      }
      counts.preserveUsed++;
      rt = roundTrip(preserve.codec, call);
    }
    if (rt.kind === "round-tripped") {
      counts.roundTripped++;
      log.write({ corpus: "bfcl", ...where, outcome: "round-tripped" });
      return;
    }
    if (rt.kind === "crashed") crashed(where, rt.crash);
    counts.failed++;
    const failure = { ...where, args: excerpt(call, 300), ...describe(rt) };
    s.failures.push(failure);
    log.write({ corpus: "bfcl", ...failure, outcome: "failed" });
  };

  const answerDir = join(dir, "possible_answer");
  for (const file of listFiles(answerDir, ".json.gz")) {
    const byId = questions.get(file);
    const classes = classesOf.get(file);
    const counts = emptyCounts();
    const multi = { ...emptyCounts(), unparsed: 0 };
    const lines = readJsonLines(join(answerDir, file));
    lines.forEach((entry, i) => {
      progress.update(`BFCL answers ${file}`, i, lines.length);
      if (!entry.ok) throw new Error(`bfcl: possible_answer/${file} line ${entry.line} does not parse`);
      const a = entry.value as { id?: unknown; ground_truth?: unknown };
      const id = typeof a.id === "string" ? a.id : "";
      const truth = a.ground_truth;
      if (Array.isArray(truth) && truth.length > 0 && truth.every(isPlainObject)) {
        const functions = byId?.get(id);
        truth.forEach((call, ci) => {
          const name = Object.keys(call)[0] ?? "";
          const fn = functions?.find((f) => f.name === name);
          check(counts, { file, id, call: ci, function: name }, fn, () =>
            concreteCall(call[name], bfclToJsonSchema(fn?.parameters)),
          );
        });
        return;
      }
      const involved = classes?.get(id);
      if (Array.isArray(truth) && involved !== undefined && truth.every((t) => Array.isArray(t))) {
        const candidates = involved.flatMap((c) => docs.get(CLASS_DOCS[c] ?? "") ?? []);
        truth.forEach((turn: unknown[], ti) => {
          turn.forEach((text, ci) => {
            const where = { file, id, turn: ti, call: ci, text: excerpt(text, 200) };
            const parsed = typeof text === "string" ? parsePyCall(text) : { ok: false as const, error: "not text" };
            if (!parsed.ok) {
              multi.unparsed++;
              log.write({ corpus: "bfcl", ...where, outcome: "unparsed", error: parsed.error });
              return;
            }
            const fn = candidates.find((f) => f.name === parsed.call.name);
            check(multi, { ...where, function: parsed.call.name }, fn, () =>
              callArguments(parsed.call, fn?.parameters),
            );
          });
        });
        return;
      }
      s.notCallAnswers[file] = (s.notCallAnswers[file] ?? 0) + 1;
    });
    progress.clear();
    if (counts.answers > 0) {
      s.answersByFile[file] = counts;
      for (const k of Object.keys(counts) as (keyof AnswerCounts)[]) s[k] += counts[k];
    }
    if (multi.answers + multi.unparsed > 0) {
      s.multiTurn.byFile[file] = multi;
      for (const k of Object.keys(multi) as (keyof typeof multi)[]) s.multiTurn[k] += multi[k];
    }
  }
  s.refusalExamples = refusals.toJSON();
  return s;
}

function compileOptions(fn: BfclFunction): CompileOptions {
  return {
    dialect: "bfcl",
    name: toolName(fn.name),
    ...(typeof fn.description === "string" ? { description: fn.description } : {}),
  };
}

/** Which multi_turn_func_doc file documents each class a multi-turn question involves. */
const CLASS_DOCS: Readonly<Record<string, string>> = {
  GorillaFileSystem: "gorilla_file_system",
  MathAPI: "math_api",
  MessageAPI: "message_api",
  TwitterAPI: "posting_api",
  TicketAPI: "ticket_api",
  TradingBot: "trading_bot",
  TravelAPI: "travel_booking",
  VehicleControlAPI: "vehicle_control",
  WebSearchAPI: "web_search",
};

/** Keyword arguments by name; positional ones by the order of the documented parameters. */
function callArguments(call: PyCall, schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = isPlainObject(schema) && isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  call.positional.forEach((value, i) => {
    // More positional arguments than documented parameters: keep them visible, under a name no schema declares.
    define(out, names[i] ?? `#${i}`, value);
  });
  for (const [name, value] of call.keywords) define(out, name, value);
  return out;
}

function parseWhole(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function hasType(schema: unknown, type: string): boolean {
  if (!isPlainObject(schema)) return false;
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

/**
 * BFCL's possible-answer form -> one concrete call. As BFCL's own checker reads
 * it: each parameter lists acceptable values ("" = may be left out); a dict
 * parameter's members, and each dict of a list-of-dicts parameter, list
 * acceptable values the same way, one level deep.
 */
export function concreteCall(params: unknown, schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(params)) return out;
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  for (const [param, acceptable] of Object.entries(params)) {
    const chosen = firstAcceptable(acceptable);
    if (chosen === undefined) continue;
    let value = chosen.value;
    const prop = properties[param];
    if (hasType(prop, "object") && isAcceptableForm(value)) value = pickDict(value);
    else if (
      hasType(prop, "array") &&
      isPlainObject(prop) &&
      hasType(prop.items, "object") &&
      Array.isArray(value) &&
      value.every(isAcceptableForm)
    ) {
      value = value.map((d) => pickDict(d as Record<string, unknown[]>));
    }
    define(out, param, value);
  }
  return out;
}

/** The first acceptable value, or undefined when the parameter may be left out (or has none). */
function firstAcceptable(acceptable: unknown): { value: unknown } | undefined {
  if (!Array.isArray(acceptable)) return { value: acceptable };
  if (acceptable.length === 0 || acceptable.includes("")) return undefined;
  return { value: acceptable[0] };
}

function isAcceptableForm(value: unknown): value is Record<string, unknown[]> {
  return isPlainObject(value) && Object.values(value).every(Array.isArray);
}

function pickDict(d: Record<string, unknown[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, acceptable] of Object.entries(d)) {
    const chosen = firstAcceptable(acceptable);
    if (chosen !== undefined) define(out, k, chosen.value);
  }
  return out;
}

/** An own data member, whatever its name ("__proto__" included). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const JSON_SCHEMA_TYPES = new Set(["string", "integer", "number", "boolean", "object", "array", "null"]);

/** Walk the source and the adapted schema side by side and name each kind of change. */
function countChanges(source: unknown, adapted: unknown, tally: Tally): void {
  const stack: [unknown, unknown][] = [[source, adapted]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    if (!isPlainObject(a) || !isPlainObject(b)) continue;
    if (typeof a.type === "string" && !JSON_SCHEMA_TYPES.has(a.type)) {
      bump(tally, `type ${a.type} -> ${b.type === undefined ? "(any value)" : JSON.stringify(b.type)}`);
    } else if (a.type !== undefined && JSON.stringify(a.type) !== JSON.stringify(b.type)) {
      bump(tally, `type ${JSON.stringify(a.type)} -> ${JSON.stringify(b.type)} (enum values)`);
    }
    if (Object.hasOwn(a, "default") && !Object.hasOwn(b, "default")) bump(tally, "default dropped");
    if (Object.hasOwn(a, "optional")) bump(tally, "optional dropped");
    if (Array.isArray(a.required)) {
      const dropped = a.required.length - (Array.isArray(b.required) ? b.required.length : 0);
      if (dropped > 0) bump(tally, "required names dropped", dropped);
    }
    if (isPlainObject(a.properties) && isPlainObject(b.properties)) {
      const bp = b.properties;
      for (const [k, v] of Object.entries(a.properties)) stack.push([v, bp[k]]);
    }
    if (isPlainObject(a.items)) stack.push([a.items, b.items]);
    if (isPlainObject(a.additionalProperties)) stack.push([a.additionalProperties, b.additionalProperties]);
  }
}

function countTypeNames(schema: unknown, tally: Tally): void {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isPlainObject(node)) continue;
    if (typeof node.type === "string") bump(tally, node.type);
    else if (Array.isArray(node.type)) for (const t of node.type) bump(tally, String(t));
    if (isPlainObject(node.properties)) stack.push(...Object.values(node.properties));
    if (node.items !== undefined) stack.push(...(Array.isArray(node.items) ? node.items : [node.items]));
    if (isPlainObject(node.additionalProperties)) stack.push(node.additionalProperties);
    for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(node[k])) stack.push(...(node[k] as unknown[]));
  }
}
