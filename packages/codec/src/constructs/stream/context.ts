/**
 * What a construct's stream half (<kind>.ts here, its `partial`) is given:
 * the context of the stream decoder's walk and the memo of one open wire
 * container. The stream layer's own: the core's constructs take none of it.
 */
import type { Node } from "../../ir/nodes.js";
import type { ParseLimits } from "../../parse/parser.js";
import type { Absent, Walk } from "../context.js";

/**
 * What a construct's `partial` (the streaming decoder's display of a value
 * still being written, stream/decoder.ts) is handed: the definitions, its
 * children's partials, and whether a wire value is written to its end.
 * Display only: nothing is validated.
 */
export interface PartialContext {
  readonly defs: Readonly<Record<string, Node>>;
  /** The walk, for what a construct asks of its children beyond their partial value (their wire types). */
  readonly walk: Walk;
  /** Limits for JSON text carried inside the wire (json-text nodes). */
  readonly limits: ParseLimits;
  /**
   * A child's partial source value, or ABSENT for nothing to show (yet).
   * `holder[key]` is where the wire value sits, when it sits in a container
   * other than the one the caller was handed (lets a push that only grows a
   * string update its one place).
   */
  child(node: Node, wire: unknown, holder?: object, key?: string | number): unknown | Absent;
  /** A complete child's partial, to judge it, shown nowhere: what it puts does not make the push a change. */
  aside(node: Node, wire: unknown): unknown | Absent;
  /**
   * Whether a wire value is written to its end: false for the container or
   * string being written (a string is told by where it sits: `holder[key]`;
   * without them, by its value, which may wrongly say false, never wrongly true).
   */
  complete(wire: unknown, holder?: object, key?: string | number): boolean;
  /**
   * How many members an open wire object has placed (in text order), or
   * undefined when it is written to its end: a construct that read it before
   * need read only the member then being written and those placed since.
   */
  placed(wire: object): number | undefined;
  /** Sets `out[key]` (an own data member), noting whether that changed the partial value. */
  put(out: Record<string, unknown> | unknown[], key: string | number, value: unknown): void;
  /** The entry at `index` of a map's wire entries has a complete key an earlier entry has: no completion decodes. */
  repeatedKey(entries: readonly unknown[], index: number): void;
  /**
   * A child written to its end and shown, which the construct will not read
   * again (an element behind its count, a settled member, a complete entry's
   * value): what was kept to read it again is let go, so a long stream keeps
   * only what it may still read.
   */
  passed(wire: unknown): void;
}

/**
 * A construct's memo for one open wire container: the partial it showed at
 * the last push (undefined the first time), to update in place, and how far
 * into the wire it has read (its own count: entries, elements).
 */
export interface PartialMemo {
  value: unknown;
  read: number;
  /** Per union branch (by index), whether it is ruled out. */
  settled: boolean[] | undefined;
  /** An object's declared members, as read so far (object.ts `fieldsPartial`). */
  fields: FieldsRead | undefined;
  /** A map's keys of the entries written to their end, to find a key written twice. */
  keys: Set<string> | undefined;
}

/** How far an object's declared members are read (object.ts `fieldsPartial`). */
export interface FieldsRead {
  /** Per declared member (by index), whether it is written to its end and shown: not read again. */
  readonly settled: boolean[];
  /** Every member before this index is settled. */
  from: number;
  /** The declared members found placed so far. */
  found: number;
  /** The member placed and not settled at the last read (the one being written), or -1. */
  open: number;
}

export function newFieldsRead(): FieldsRead {
  return { settled: [], from: 0, found: 0, open: -1 };
}
