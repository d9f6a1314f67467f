/**
 * Readers for the inputs: the repository's fixtures and its external corpora
 * (corpora/: BFCL, MCP tool snapshots, JSONSchemaBench).
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { canonicalJson, isPlainObject } from "@strictwire/codec/schema";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The repository's corpora/ (docs/conformance.md); STRICTWIRE_CORPORA points elsewhere. */
export const CORPORA =
  process.env.STRICTWIRE_CORPORA !== undefined && process.env.STRICTWIRE_CORPORA !== ""
    ? process.env.STRICTWIRE_CORPORA
    : join(REPO_ROOT, "corpora");

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonSchema = Record<string, unknown>;

export interface Fixture {
  readonly name: string;
  readonly schema: unknown;
  readonly options: Record<string, unknown>;
  readonly valid: readonly unknown[];
}

export function loadFixtures(): Fixture[] {
  const dir = join(REPO_ROOT, "fixtures/schemas");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const doc = JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, unknown>;
      return {
        name: basename(f, ".json"),
        schema: doc.schema,
        options: isPlainObject(doc.options) ? doc.options : {},
        valid: Array.isArray(doc.valid) ? doc.valid : [],
      };
    });
}

/** JSON lines; a file that is one JSON document instead (BFCL's format_sensitivity index) gives its array, or nothing. */
function jsonLines(path: string): unknown[] {
  const text = gunzipSync(readFileSync(path)).toString("utf8");
  const out: unknown[] = [];
  try {
    for (const line of text.split("\n")) {
      const t = line.trim();
      if (t !== "") out.push(JSON.parse(t));
    }
  } catch {
    const whole = JSON.parse(text) as unknown;
    return Array.isArray(whole) ? whole : [];
  }
  return out;
}

// ---------------------------------------------------------------------------
// BFCL

const BFCL_TYPES: Readonly<Record<string, string>> = {
  dict: "object",
  float: "number",
  tuple: "array",
  // Java and JavaScript names (BFCL's java/javascript sets).
  string: "string",
  str: "string",
  char: "string",
  integer: "integer",
  int: "integer",
  long: "integer",
  short: "integer",
  byte: "integer",
  number: "number",
  double: "number",
  boolean: "boolean",
  bool: "boolean",
  object: "object",
  hashmap: "object",
  map: "object",
  array: "array",
  arraylist: "array",
  list: "array",
  set: "array",
  null: "null",
};

/**
 * BFCL parameter schemas as JSON Schema, minimally, for the converters that
 * only read JSON Schema (and for the ajv baseline): type names mapped
 * (dict -> object, float -> number, tuple -> array, Java/JavaScript names to
 * their JSON type), `any` drops `type`, the non-standard `optional` member is
 * dropped, and `required` keeps only declared names.
 */
export function bfclToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(bfclToJsonSchema);
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "optional") continue;
    if (k === "type" && typeof v === "string") {
      const lower = v.toLowerCase();
      if (lower === "any" || lower === "") continue;
      out.type = BFCL_TYPES[lower] ?? v;
      continue;
    }
    if (k === "properties" && isPlainObject(v)) {
      const props: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(v)) props[name] = bfclToJsonSchema(sub);
      out.properties = props;
      continue;
    }
    if (k === "items" || k === "additionalProperties") {
      out[k] = bfclToJsonSchema(v);
      continue;
    }
    out[k] = v;
  }
  if (Array.isArray(out.required) && isPlainObject(out.properties)) {
    const declared = out.properties;
    out.required = out.required.filter((n) => typeof n === "string" && Object.hasOwn(declared, n));
  }
  return out;
}

export interface BfclFunction {
  readonly id: string;
  readonly name: string;
  /** The parameters as BFCL writes them. */
  readonly raw: unknown;
  /** The minimal JSON Schema form (bfclToJsonSchema). */
  readonly schema: unknown;
  /** Argument objects from the ground-truth answers (first acceptable value per parameter; "" first means left out). */
  readonly instances: unknown[];
}

function bfclFiles(): string[] {
  const dir = join(CORPORA, "bfcl");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json.gz"))
    .sort()
    .map((f) => join(dir, f));
}

/** Unique BFCL function schemas, with the ground-truth calls as instances where there are some. */
export function loadBfcl(): BfclFunction[] {
  const byKey = new Map<string, BfclFunction>();
  const add = (fn: unknown, file: string): BfclFunction | undefined => {
    if (!isPlainObject(fn) || typeof fn.name !== "string" || !isPlainObject(fn.parameters)) return undefined;
    const key = canonicalJson({ name: fn.name, parameters: fn.parameters });
    let entry = byKey.get(key);
    if (entry === undefined) {
      entry = {
        id: `${basename(file, ".json.gz")}/${fn.name}`,
        name: fn.name,
        raw: fn.parameters,
        schema: bfclToJsonSchema(fn.parameters),
        instances: [],
      };
      byKey.set(key, entry);
    }
    return entry;
  };
  for (const file of bfclFiles()) {
    const answersPath = join(CORPORA, "bfcl/possible_answer", basename(file));
    const answers = new Map<string, unknown>();
    if (existsSync(answersPath)) {
      for (const line of jsonLines(answersPath)) {
        if (isPlainObject(line) && typeof line.id === "string") answers.set(line.id, line.ground_truth);
      }
    }
    for (const line of jsonLines(file)) {
      if (!isPlainObject(line) || !Array.isArray(line.function)) continue;
      const entries = new Map<string, BfclFunction>();
      for (const fn of line.function) {
        const e = add(fn, file);
        if (e !== undefined) entries.set(e.name, e);
      }
      const truth = typeof line.id === "string" ? answers.get(line.id) : undefined;
      if (!Array.isArray(truth)) continue;
      for (const call of truth) {
        if (!isPlainObject(call)) continue;
        for (const [name, params] of Object.entries(call)) {
          const e = entries.get(name);
          if (e === undefined || !isPlainObject(params)) continue;
          const instance: Record<string, unknown> = {};
          for (const [param, acceptable] of Object.entries(params)) {
            if (!Array.isArray(acceptable) || acceptable.length === 0) continue;
            if (acceptable[0] === "") continue;
            instance[param] = acceptable[0];
          }
          e.instances.push(instance);
        }
      }
    }
  }
  const docs = join(CORPORA, "bfcl/multi_turn_func_doc");
  if (existsSync(docs)) {
    for (const f of readdirSync(docs).sort()) {
      if (f.endsWith(".json.gz")) for (const fn of jsonLines(join(docs, f))) add(fn, join(docs, f));
    }
  }
  for (const e of byKey.values()) {
    // The same call often recurs in several question files.
    const seen = new Set<string>();
    const unique = e.instances.filter((i) => {
      const k = canonicalJson(i);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    e.instances.length = 0;
    e.instances.push(...unique);
  }
  return [...byKey.values()];
}

// ---------------------------------------------------------------------------
// MCP

export interface McpTool {
  readonly id: string;
  readonly schema: unknown;
}

export function loadMcp(): McpTool[] {
  const out = new Map<string, McpTool>();
  const snaps = join(CORPORA, "mcp/github-mcp-server/toolsnaps");
  if (existsSync(snaps)) {
    for (const f of readdirSync(snaps).sort()) {
      if (!f.endsWith(".json")) continue;
      const doc = JSON.parse(readFileSync(join(snaps, f), "utf8")) as Record<string, unknown>;
      if (isPlainObject(doc.inputSchema)) {
        const id = `github/${basename(f, ".json")}`;
        out.set(canonicalJson(doc.inputSchema) + id, { id, schema: doc.inputSchema });
      }
    }
  }
  const proxy = join(CORPORA, "mcp/mcp-proxy-snapshots");
  if (existsSync(proxy)) {
    for (const f of readdirSync(proxy).sort()) {
      if (!f.endsWith(".json")) continue;
      const doc = JSON.parse(readFileSync(join(proxy, f), "utf8")) as Record<string, unknown>;
      if (!Array.isArray(doc.tools)) continue;
      for (const tool of doc.tools) {
        if (!isPlainObject(tool) || !isPlainObject(tool.inputSchema)) continue;
        const id = `${basename(f, ".json")}/${String(tool.name)}`;
        out.set(canonicalJson(tool.inputSchema) + id, { id, schema: tool.inputSchema });
      }
    }
  }
  return [...out.values()];
}

// ---------------------------------------------------------------------------
// JSONSchemaBench

export interface BenchSchema {
  readonly id: string;
  readonly subset: string;
  readonly schema: unknown;
  readonly valid: unknown[];
}

export function jsonSchemaBenchSubsets(): string[] {
  const dir = join(CORPORA, "jsonschemabench");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl.gz"))
    .map((f) => basename(f, ".jsonl.gz"))
    .sort();
}

export function loadJsonSchemaBench(subset: string): BenchSchema[] {
  const out: BenchSchema[] = [];
  for (const line of jsonLines(join(CORPORA, "jsonschemabench", `${subset}.jsonl.gz`))) {
    if (!isPlainObject(line)) continue;
    const tests = Array.isArray(line.tests) ? line.tests : [];
    out.push({
      id: String(line.id),
      subset,
      schema: line.schema,
      valid: tests.filter((t) => isPlainObject(t) && t.valid === true).map((t) => (t as Record<string, unknown>).data),
    });
  }
  return out;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic shuffle (Fisher-Yates with a seeded generator). */
export function shuffle<T>(items: readonly T[], seed = 1): T[] {
  const rnd = random(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A deterministic sample of at most n items, kept in their original order. */
export function sample<T>(items: readonly T[], n: number, seed = 1): T[] {
  if (items.length <= n) return [...items];
  const chosen = new Set(shuffle(items, seed).slice(0, n));
  return items.filter((i) => chosen.has(i));
}
