/**
 * What both stream decoders (decoder.ts walking, lockstep.ts in step) give
 * alike: their ok steps, and a member's state read along its pointer. They
 * differ only in how they know where a completed member is (`pointersOf`) and
 * whether a member is still being written (`isOpen`).
 */
import type { MemberState, StreamStep } from "./types.js";

export const NONE: readonly string[] = Object.freeze([]);

/** The two ok steps of a push that completed nothing, for one partial value object: made once, frozen, given again. */
export interface SameSteps {
  readonly unchanged: StreamStep & { ok: true };
  readonly changed: StreamStep & { ok: true };
}

export function sameSteps(value: unknown): SameSteps {
  return {
    unchanged: Object.freeze({ ok: true, value, changed: false, completed: NONE }),
    changed: Object.freeze({ ok: true, value, changed: true, completed: NONE }),
  };
}

/**
 * The members completed in the push being read, as (place, key) pairs (the whole value: undefined and ""), in a
 * buffer kept over pushes (its room is made once). Both decoders record into one.
 */
export class CompletedPairs<P> {
  private readonly buffer: (P | string | number | undefined)[] = [];
  /** Twice the pairs recorded (a decoder may truncate it back to an earlier count). */
  count = 0;

  add(place: P | undefined, key: string | number): void {
    const n = this.count;
    this.buffer[n] = place;
    this.buffer[n + 1] = key;
    this.count = n + 2;
  }

  /**
   * The pairs recorded since the last take, copied (the step that holds them may be kept); none recorded after.
   * Most pushes complete one member: a literal then, not a slice, which costs several times more.
   */
  take(): (P | string | number | undefined)[] {
    const n = this.count;
    const b = this.buffer;
    this.count = 0;
    return n === 2 ? [b[0], b[1]] : b.slice(0, n);
  }
}

/** What makes the pointers of a push's completed members from the pairs it recorded. */
export interface PointerSource<P> {
  pointersOf(pairs: readonly P[]): string[];
}

/**
 * An ok step of a push that completed members: their pointers are made when
 * `completed` is first read. What makes them is private (#): the step's own
 * members are those of every step. Made for its push alone and never read
 * back, so not frozen: freezing a new object costs 30 to 40 ns, as much as
 * the rest of a push of a few characters (any JSON completes a member in
 * four pushes of five). The list of pointers is frozen.
 */
export class CompletedStep<P> {
  readonly ok = true as const;
  readonly #source: PointerSource<P>;
  readonly #pairs: readonly P[];
  #pointers: readonly string[] | undefined;

  constructor(
    readonly value: unknown,
    readonly changed: boolean,
    source: PointerSource<P>,
    pairs: readonly P[],
  ) {
    this.#source = source;
    this.#pairs = pairs;
  }

  get completed(): readonly string[] {
    this.#pointers ??= Object.freeze(this.#source.pointersOf(this.#pairs));
    return this.#pointers;
  }
}

/**
 * The state of the member at `pointer` in `root` (undefined: nothing shown
 * yet). `isOpen(container, key)`: whether that member is being written.
 */
export function memberState(
  root: unknown,
  rootComplete: boolean,
  pointer: string,
  isOpen: (container: object, key: string | number) => boolean,
): MemberState {
  if (root === undefined) return "pending";
  if (pointer === "") return rootComplete ? "complete" : "incomplete";
  if (!pointer.startsWith("/")) return rootComplete ? "complete" : "pending";
  let at: unknown = root;
  let open = !rootComplete;
  for (const raw of pointer.slice(1).split("/")) {
    // A member of a complete container that the value does not have is absent for good.
    if (!open) return "complete";
    if (typeof at !== "object" || at === null) return "pending";
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    let key: string | number = token;
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return "pending";
      key = Number(token);
      if (key >= at.length) return "pending";
    } else if (!Object.hasOwn(at, token)) return "pending";
    open = isOpen(at, key);
    at = (at as Record<string | number, unknown>)[key];
  }
  return open ? "incomplete" : "complete";
}
