/**
 * Wire-level early refusal for the streaming decoder (issue 28): whether the
 * text so far already breaks the wire schema for EVERY completion.
 *
 * Read from the wire schema, per wire container, once: the schemas a
 * container may still meet ("candidates": `anyOf`/`oneOf` branches and local
 * `$ref`s expanded) are found from its parent's candidates and its member
 * name or index when the container is first seen, and kept. A push then
 * checks only what is new on the parser's spine: a container just opened, a
 * member name just completed, the scalar being read (its JSON type from its
 * first character, a string's prefix against the allowed enum/const values).
 *
 * The candidates over-approximate what the wire schema allows (siblings of
 * `$ref`/`anyOf` and keywords not read here only loosen them; a schema that
 * uses a keyword which could allow more, such as patternProperties,
 * `nullable` or `not`, allows anything), so "no candidate left" means no
 * completion meets the wire schema, and decode accepts only texts the wire
 * schema accepts. What is checked: a closed object's undeclared member name
 * (`additionalProperties: false`), a JSON type every candidate forbids, a
 * string that no allowed enum/const string begins with.
 */
import type { CodecCore } from "../codec.js";
import { isPlainObject } from "../json.js";

/** The key under which `Candidates.at` keeps what every undeclared member name meets. */
const UNDECLARED: unique symbol = Symbol("undeclared");

/** A schema a value may still meet; ANYTHING where no verdict is read. */
export type Candidate = Readonly<Record<string, unknown>>;
const ANYTHING: Candidate = {};

/** Keywords that could allow what the keywords read here forbid: their schema allows anything here. */
const LOOSENING = ["nullable", "not", "if", "patternProperties", "$dynamicRef", "$recursiveRef", "allOf"] as const;

/** How deep `$ref`/`anyOf` chains are expanded before allowing anything (a cycle ends here too). */
const EXPAND_DEPTH = 16;

export type ValueType = "object" | "array" | "string" | "number" | "boolean" | "null";
/** A type's index in `typed`: compared, not looked up by key (a keyed load costs more, per value read). */
function typeIndex(type: ValueType): number {
  return type === "string"
    ? 2
    : type === "number"
      ? 3
      : type === "object"
        ? 0
        : type === "array"
          ? 1
          : type === "boolean"
            ? 4
            : 5;
}

/** The wire schema, read for early refusal: its definitions and the root value's candidates. */
export class WireCandidates {
  private readonly defs: Readonly<Record<string, unknown>>;
  private readonly legacyDefs: Readonly<Record<string, unknown>>;

  /** The candidates of the root value. */
  readonly root: Candidates;

  constructor(root: unknown) {
    const r = isPlainObject(root) ? root : {};
    this.defs = isPlainObject(r.$defs) ? r.$defs : {};
    this.legacyDefs = isPlainObject(r.definitions) ? r.definitions : {};
    this.root = new Candidates(this.expand(root, 0), this);
  }

  /** A schema's candidates: `$ref`s followed, `anyOf`/`oneOf` branches listed. */
  expand(schema: unknown, depth: number): Candidate[] {
    if (schema === true) return [ANYTHING];
    if (schema === false) return [];
    if (!isPlainObject(schema) || depth > EXPAND_DEPTH) return [ANYTHING];
    if (LOOSENING.some((k) => Object.hasOwn(schema, k))) return [ANYTHING];
    if (typeof schema.$ref === "string") {
      const target = this.resolve(schema.$ref);
      return target === undefined ? [ANYTHING] : this.expand(target, depth + 1);
    }
    const branches = Array.isArray(schema.anyOf)
      ? schema.anyOf
      : Array.isArray(schema.oneOf)
        ? schema.oneOf
        : undefined;
    if (branches !== undefined) return branches.flatMap((b) => this.expand(b, depth + 1));
    return [schema];
  }

  private resolve(ref: string): unknown {
    const m = /^#\/(\$defs|definitions)\/([^/~]+)$/.exec(ref);
    if (m === null) return undefined;
    const defs = m[1] === "$defs" ? this.defs : this.legacyDefs;
    return Object.hasOwn(defs, m[2]!) ? defs[m[2]!] : undefined;
  }
}

/** A codec's wire candidates, read once per codec (the wire schema does not change): both stream decoders'. */
const perCodec = new WeakMap<object, WireCandidates>();
export function wireCandidatesOf(codec: CodecCore<unknown>): WireCandidates {
  let found = perCodec.get(codec);
  if (found === undefined) {
    found = new WireCandidates(codec.bundle.wire);
    perCodec.set(codec, found);
  }
  return found;
}

/**
 * The schemas a wire value may still meet, with what a push asks of them read
 * once: kept per wire container by the decoder, and the lists reached from
 * them kept here, so a push reads fields, not schemas.
 */
export class Candidates {
  /** No schema left: every completion breaks the wire schema. */
  readonly empty: boolean;
  private steps: Map<string | number | typeof UNDECLARED, Candidates> | undefined;
  private readonly typed: (Candidates | undefined)[] = [
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ];
  private read = false;
  private anyNameRead = false;
  private namesRead: readonly string[] = [];
  private anyStringRead = false;
  /** The const and enum strings the string candidates allow (read where none allows every string), sorted for PrefixMatch. */
  private stringsSorted: readonly string[] = [];
  /** namesRead, sorted for PrefixMatch. */
  private namesSorted: readonly string[] = [];
  private valuedRead = false;
  private prefixRead = 0;
  /** The member names some candidate allowing an object declares (in `properties`). */
  private declared: ReadonlySet<string> = new Set();

  constructor(
    readonly list: readonly Candidate[],
    private readonly wire: WireCandidates,
  ) {
    this.empty = list.length === 0;
  }

  /**
   * The candidates of a member or element; kept per step (every element past
   * a tuple's prefix shares one entry), for names the schema declares only:
   * names come from the model.
   */
  at(step: string | number): Candidates {
    this.facts();
    this.steps ??= new Map();
    // Every element past a tuple's prefix shares one entry, and every member name no candidate declares another
    // (what such a member may meet depends only on each candidate's additionalProperties): an open object's members
    // cost no new list each.
    const key =
      typeof step === "number" ? (step >= this.prefixRead ? -1 : step) : this.declared.has(step) ? step : UNDECLARED;
    let found = this.steps.get(key);
    if (found === undefined) {
      found = typeof step === "number" ? this.element(step) : this.member(step);
      this.steps.set(key, found);
    }
    return found;
  }

  /** The candidates of member `name` of an object meeting these (any type allowed). */
  member(name: string): Candidates {
    const out: Candidate[] = [];
    for (const c of this.list) {
      if (c === ANYTHING) return new Candidates([ANYTHING], this.wire);
      if (!allowsType(c, "object")) continue;
      const properties = c.properties;
      if (isPlainObject(properties) && Object.hasOwn(properties, name)) {
        out.push(...this.wire.expand(properties[name], 0));
        continue;
      }
      const additional = c.additionalProperties;
      if (additional === false) continue;
      out.push(...(additional === undefined ? [ANYTHING] : this.wire.expand(additional, 0)));
    }
    return new Candidates(out, this.wire);
  }

  /** The candidates of element `index` of an array meeting these. */
  element(index: number): Candidates {
    const out: Candidate[] = [];
    for (const c of this.list) {
      if (c === ANYTHING) return new Candidates([ANYTHING], this.wire);
      if (!allowsType(c, "array")) continue;
      const prefix = Array.isArray(c.prefixItems) ? c.prefixItems : Array.isArray(c.items) ? c.items : undefined;
      if (prefix !== undefined && index < prefix.length) {
        out.push(...this.wire.expand(prefix[index], 0));
        continue;
      }
      const rest = Array.isArray(c.items) ? c.additionalItems : c.items;
      if (rest === false) continue;
      out.push(...(rest === undefined ? [ANYTHING] : this.wire.expand(rest, 0)));
    }
    return new Candidates(out, this.wire);
  }

  /** Those a value of `type` may meet (kept). */
  /** From which index every element meets the same candidates (`at` gives one object for all of them). */
  get elementsAlikeFrom(): number {
    this.facts();
    return this.prefixRead;
  }

  allowing(type: ValueType): Candidates {
    const i = typeIndex(type);
    let typed = this.typed[i];
    if (typed === undefined) {
      typed = new Candidates(allowingType(this.list, type), this.wire);
      this.typed[i] = typed;
    }
    return typed;
  }

  /**
   * A matcher for one string as it grows (undefined: any string may meet
   * one of these), against the const and enum strings allowed: `reuse`
   * started again if given (a matcher is made once per decoder, not per string).
   */
  stringMatch(reuse?: PrefixMatch): PrefixMatch | undefined {
    const strings = this.allowing("string");
    strings.facts();
    if (strings.anyStringRead) return undefined;
    return reuse === undefined ? new PrefixMatch(strings.stringsSorted) : reuse.restart(strings.stringsSorted);
  }

  /** Whether some candidate allows every string (no const or enum): a string's growth is never impossible. */
  get anyString(): boolean {
    this.facts();
    return this.anyStringRead;
  }

  /**
   * Whether some candidate of an object may have a member whose name begins
   * with `prefix` (undefined: any name, as an open object allows).
   */
  namePossible(prefix: string | undefined): boolean {
    this.facts();
    if (this.anyNameRead) return true;
    if (prefix === undefined) return false;
    for (const name of this.namesRead) if (name.startsWith(prefix)) return true;
    return false;
  }

  /** A matcher for one member name as it grows (undefined: any name is allowed); `reuse` as for stringMatch. */
  nameMatch(reuse?: PrefixMatch): PrefixMatch | undefined {
    this.facts();
    if (this.anyNameRead) return undefined;
    return reuse === undefined ? new PrefixMatch(this.namesSorted) : reuse.restart(this.namesSorted);
  }

  /**
   * A declared member name beginning with `prefix` that `object` does not
   * have yet (the first of the names read), else undefined.
   */
  declaredName(prefix: string, object: Readonly<Record<string, unknown>>): string | undefined {
    this.facts();
    for (const name of this.namesRead) if (name.startsWith(prefix) && !Object.hasOwn(object, name)) return name;
    return undefined;
  }

  /** Whether a complete scalar may meet one of these: its type, and the const or enum value if any. */
  scalarPossible(value: unknown): boolean {
    const type = typeOf(value);
    if (type === undefined || type === "object" || type === "array") return true;
    const typed = this.allowing(type);
    typed.facts();
    if (!typed.valuedRead) return !typed.empty;
    for (const c of typed.list) {
      if (Object.hasOwn(c, "const")) {
        if (c.const === value) return true;
      } else if (!Array.isArray(c.enum) || c.enum.includes(value)) return true;
    }
    return false;
  }

  /** One of these alone. */
  only(c: Candidate): Candidates {
    return new Candidates([c], this.wire);
  }

  private facts(): void {
    if (this.read) return;
    this.read = true;
    const names: string[] = [];
    const declared = new Set<string>();
    for (const c of this.list) {
      if (c !== ANYTHING && allowsType(c, "object") && isPlainObject(c.properties)) {
        for (const name of Object.keys(c.properties)) declared.add(name);
      }
      if (c === ANYTHING || c.additionalProperties !== false) this.anyNameRead = true;
      else if (allowsType(c, "object") && isPlainObject(c.properties)) names.push(...Object.keys(c.properties));
      const prefix = Array.isArray(c.prefixItems) ? c.prefixItems : Array.isArray(c.items) ? c.items : undefined;
      if (prefix !== undefined && prefix.length > this.prefixRead) this.prefixRead = prefix.length;
    }
    this.namesRead = names;
    this.namesSorted = [...names].sort();
    this.declared = declared;
    const strings: string[] = [];
    for (const c of this.list) {
      for (const v of allowedValues(c) ?? []) if (typeof v === "string" && allowsType(c, "string")) strings.push(v);
    }
    this.stringsSorted = strings.sort();
    this.anyStringRead = this.list.some((c) => allowsType(c, "string") && allowedValues(c) === undefined);
    this.valuedRead = this.list.some((c) => allowedValues(c) !== undefined);
  }
}

/**
 * Whether a string being written still begins one of `values` (sorted by
 * UTF-16 code units), asked again each time it grows. It keeps the range of
 * values that begin with the string so far: a push compares only the
 * characters it added, never the string so far (a rope, made flat if read).
 * The first value of the range is checked first, one comparison per
 * character; when it stops matching, the range is narrowed by binary search
 * over the characters read since it was last exact, each position once. A
 * string costs its length times the log of the values, however many values
 * share its beginning (a wide object's names `member_1` … `member_999`).
 */
export class PrefixMatch {
  /** values[lo..hi) holds every value that begins with the string so far (whose length is `at`). */
  private lo = 0;
  private hi = 0;
  private at = 0;
  /** The range is exactly those values for the first `exact` characters; values[lo] begins with all `at`. */
  private exact = 0;

  constructor(private values: readonly string[]) {
    this.hi = values.length;
  }

  /** This matcher, for a new string against `values` (sorted). */
  restart(values: readonly string[]): PrefixMatch {
    this.values = values;
    this.lo = 0;
    this.hi = values.length;
    this.at = 0;
    this.exact = 0;
    return this;
  }

  /** Whether some value begins with the string so far, given what it gained since last asked. */
  grow(added: string): boolean {
    const values = this.values;
    let lo = this.lo;
    let hi = this.hi;
    let at = this.at;
    for (let i = 0; i < added.length && lo < hi; i++, at++) {
      const c = added.charCodeAt(i);
      const first = values[lo]!;
      if (at < first.length && first.charCodeAt(at) === c) continue;
      // The first value left stops matching: the range made exact to here, then narrowed by c.
      for (let k = this.exact; k < at; k++) hi = firstFrom(values, lo, hi, k, first.charCodeAt(k) + 1);
      lo = firstFrom(values, lo, hi, at, c);
      hi = firstFrom(values, lo, hi, at, c + 1);
      this.exact = at + 1;
    }
    this.lo = lo;
    this.hi = hi;
    this.at = at;
    return lo < hi;
  }
}

/**
 * The first index in lo..hi whose value's character at `at` is at least `c`
 * (a value that ends at `at` counts as less than any): values[lo..hi) sorted
 * and alike before `at`.
 */
function firstFrom(values: readonly string[], lo: number, hi: number, at: number, c: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = values[mid]!;
    if ((at < v.length ? v.charCodeAt(at) : -1) < c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The candidates that allow `type`. Its own function: a closure over `type`
 * in `allowing` would make a context at every call, found or not.
 */
function allowingType(list: readonly Candidate[], type: ValueType): Candidate[] {
  return list.filter((c) => allowsType(c, type));
}

/** The JSON types a schema allows, from `type`, `enum` and `const` (undefined: any). */
function allowsType(c: Candidate, type: ValueType): boolean {
  if (c === ANYTHING) return true;
  const t = c.type;
  if (t !== undefined) {
    const types = Array.isArray(t) ? t : [t];
    const ok = types.some((x) => x === type || (type === "number" && x === "integer"));
    if (!ok) return false;
  }
  const values = allowedValues(c);
  return values === undefined || values.some((v) => typeOf(v) === type);
}

function allowedValues(c: Candidate): readonly unknown[] | undefined {
  if (Object.hasOwn(c, "const")) return [c.const];
  return Array.isArray(c.enum) ? c.enum : undefined;
}

function typeOf(v: unknown): ValueType | undefined {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  if (t === "string" || t === "number" || t === "boolean") return t;
  return t === "object" ? "object" : undefined;
}

/** How deep a filler value nests before giving up (undefined: no early refusal from that completion). */
const FILL_DEPTH = 8;

/**
 * A short wire value the first of `candidates` likely accepts, as JSON text:
 * its const or first enum value, else the simplest value of its first type
 * (null first), with its required members filled. Only for wording a
 * refusal: a filler the schema refuses after all makes decode's best match
 * point elsewhere, and the decoder then does not refuse early.
 */
export function fillerFor(candidates: Candidates, depth = 0): string | undefined {
  const c = candidates.list[0];
  if (c === undefined || depth > FILL_DEPTH) return undefined;
  if (c === ANYTHING) return "null";
  const values = allowedValues(c);
  if (values !== undefined) return values.length === 0 ? undefined : JSON.stringify(values[0]);
  const t = c.type;
  const types = t === undefined ? ["null"] : Array.isArray(t) ? t : [t];
  const type = types.includes("null") ? "null" : types[0];
  switch (type) {
    case "null":
      return "null";
    case "boolean":
      return "false";
    case "integer":
    case "number":
      return typeof c.minimum === "number" ? String(c.minimum) : "0";
    case "string":
      return JSON.stringify("a".repeat(typeof c.minLength === "number" && c.minLength < 64 ? c.minLength : 0));
    case "array": {
      const n = typeof c.minItems === "number" && c.minItems < 8 ? c.minItems : 0;
      const items: string[] = [];
      for (let i = 0; i < n; i++) {
        const item = fillerFor(candidates.only(c).element(i), depth + 1);
        if (item === undefined) return undefined;
        items.push(item);
      }
      return `[${items.join(",")}]`;
    }
    case "object": {
      const members: string[] = [];
      for (const name of requiredOf(c)) {
        const value = fillerFor(candidates.only(c).member(name), depth + 1);
        if (value === undefined) return undefined;
        members.push(`${JSON.stringify(name)}:${value}`);
      }
      return `{${members.join(",")}}`;
    }
    default:
      return undefined;
  }
}

/** The member names a candidate requires. */
export function requiredOf(c: Candidate): readonly string[] {
  return Array.isArray(c.required) ? c.required.filter((n): n is string => typeof n === "string") : [];
}

/**
 * Of an open object's candidates, the one its members so far fit best: most
 * of them declared, none of its written values against a declared const
 * (a presence tag's state, a discriminator).
 */
export function bestFit(
  candidates: readonly Candidate[],
  object: Readonly<Record<string, unknown>>,
  names: readonly string[],
): Candidate | undefined {
  let best: Candidate | undefined;
  let score = Number.NEGATIVE_INFINITY;
  for (const c of candidates) {
    const properties = isPlainObject(c.properties) ? c.properties : {};
    let fit = 0;
    for (const n of names) {
      if (!Object.hasOwn(properties, n)) continue;
      const p = properties[n];
      const against =
        isPlainObject(p) && Object.hasOwn(p, "const") && Object.hasOwn(object, n) && object[n] !== p.const;
      fit += against ? -names.length - 1 : 1;
    }
    if (fit > score) {
      best = c;
      score = fit;
    }
  }
  return best;
}
