/**
 * The streaming decoder (issue 28): one tool call's argument text read as the
 * model writes it, delta by delta (the contract is types.ts).
 *
 * - The text is read by the incremental parser (parse/incremental.ts), under
 *   the codec's limits: a push it refuses is refused with the error
 *   `codec.decode(text so far)` gives, which is the one decode gives for any
 *   text that begins with it (the parser's promise, in the original's terms).
 * - The partial source value: each construct's `partial` maps the parser's
 *   live wire tree (constructs/construct.ts). A wire container off the spine
 *   is complete, so its partial is made once and kept; the containers on the
 *   spine are updated in place from where the last push left them. A push's
 *   walk restarts at the deepest container that stayed open through it (its
 *   frame: every change lies inside), and starts again from the root only if
 *   what that frame shows changed identity (rare: a container's partial is
 *   one object, updated in place). So a push costs what it added, plus the
 *   containers below that frame.
 * - A push that placed no value (whitespace, names, a number not yet
 *   complete) changes nothing shown and maps nothing.
 * - A push that only grew the string being written (the spine unchanged)
 *   puts the longer string in the one place the last push showed it, if it
 *   is shown as itself; if nothing shows it (a tag, a key: constructs read
 *   such strings only once complete), it maps nothing at all.
 * - The partial value is live: later pushes update it in place (copy it to
 *   keep a snapshot), as the parser's own value.
 * - end() is `codec.decode(all the text)`, with the same options: the
 *   parser's value decoded without parsing again (decodeParsed, the core's
 *   entry for it in codec.ts), decode itself for anything but that path's
 *   plain success.
 * - A map key given twice (found by the map's `partial`) is refused as the
 *   wire schema's findings below are, with decode's duplicate-entry.
 *
 * Early refusal, two kinds (and the repeated map key above):
 * - What the parser settles (an impossible character, a repeated member
 *   name, depth, node and byte limits, an unsafe number, a lone surrogate):
 *   at that character, in decode's words for every text that begins with it.
 * - What the wire schema settles (stream/candidates.ts): a container, a scalar's
 *   first character or a complete scalar of a JSON type the wire forbids
 *   there, a string no allowed const/enum value begins with or equals (a
 *   presence or union tag), a member name no closed wire object declares (at
 *   its first character no declared name begins with). Checked on the spine
 *   after each piece of a push: a delta is read in pieces that end before
 *   each comma or closer, so no value is passed before it is checked, and a
 *   delta refuses where deltas of one character would. Promised: every
 *   completion of the text that is JSON within the limits, decode refuses with
 *   code "wire-violation" (a completion that breaks JSON or a limit gets that
 *   code from decode instead: the rest of the text decides). The error is
 *   decode's own for the simplest completion (the value being written
 *   finished, a member name begun or due after a comma finished as a declared
 *   one, the missing required members filled, containers closed), and is
 *   given only when its path is the impossible place or an ancestor of it;
 *   else the completion is tried again once the text has doubled. So the
 *   path is the natural completion's where decode's best match points at the
 *   mistake, and may differ from the whole text's when the rest of the text
 *   brings an issue decode ranks first.
 */
import { type CodecCore, type DecodeOptions, decodeParsed } from "../codec.js";
import { ABSENT, type Absent } from "../constructs/context.js";
import { WALK } from "../constructs/registry.js";
import type { PartialContext, PartialMemo } from "../constructs/stream/context.js";
import { partialNode } from "../constructs/stream/registry.js";
import { type CodecError, pointerJoin, type Result } from "../errors.js";
import type { Node } from "../ir/nodes.js";
import { isPlainObject, setOwn } from "../json.js";
import { IncrementalParser, type ParserView, type Pushed, type Reading } from "../parse/incremental.js";
import { DEFAULT_PARSE_LIMITS, MAX_DEPTH_LIMIT, type ParseLimits } from "../parse/parser.js";
import { Utf8Count } from "../parse/utf8.js";
import { originalPath } from "../wire/paths.js";
import {
  bestFit,
  type Candidates,
  fillerFor,
  type PrefixMatch,
  requiredOf,
  type WireCandidates,
  wireCandidatesOf,
} from "./candidates.js";
import { fastPathFits, LockstepDecoder } from "./lockstep.js";
import { CompletedPairs, CompletedStep, memberState, type SameSteps, sameSteps } from "./state.js";
import type { MemberState, StreamDecoder, StreamStep } from "./types.js";

/**
 * What a node showed for one wire container; `done` once the container is
 * complete. Chained by `next` for the other nodes that read the same container
 * (a reference and its referent): one WeakMap entry per container.
 */
interface Shown extends PartialMemo {
  done: boolean;
  readonly node: Node | undefined;
  next: Shown | undefined;
  /** Let go (passed): a later read makes a new memo, as a read of a container with none does. */
  gone: boolean;
  /** The completion record (`held`) of `heldFor`, a container this memo's node showed: kept here, so a walk looks it up in no map. */
  held: Held | undefined;
  heldFor: object | undefined;
}

/** One partial call on an open wire container: its node, the container, its memo, its index on the spine, what it showed. */
interface Frame {
  node: Node;
  wire: object;
  memo: Shown;
  spine: number;
  value: unknown;
}

/**
 * A decoder for one call's argument text as the model writes it: push each
 * delta for the partial source value (display only) or an early refusal;
 * end() is `codec.decode` of the whole text, with these options. The stream
 * layer's entry: it reads the codec through its public members and the
 * core's decodeParsed.
 */
export function streamDecoder<T>(codec: CodecCore<T>, options: DecodeOptions = {}): StreamDecoder<T> {
  const walking = () => new CodecStreamDecoder(codec, options);
  // The fast path where it reads every node of the plan (lockstep.ts); it hands the stream here when it must.
  return fastPathFits(codec) ? new LockstepDecoder(codec, options, walking) : walking();
}

export class CodecStreamDecoder<T> implements StreamDecoder<T> {
  /** The incremental parser, held as its view: the text, what the last push did, the spine, the value being read. */
  private readonly parser: ParserView;
  /** The parser's partial value, as its last push gave it. */
  private root: unknown = undefined;
  /** The text's length so far, in UTF-16 code units. */
  private written = 0;
  /** The text pushed after a refusal, which the parser no longer reads (the text is the parser's, then this). */
  private afterRefusal = "";
  /**
   * end()'s answer once the text is past maxBytes: decode refuses every such
   * text alike before reading it, so no more text is kept (a broken stream
   * must not grow the decoder without bound).
   */
  private settled: { readonly ok: false; readonly error: CodecError } | undefined;
  /** The text's UTF-8 bytes, counted after a refusal; undefined for a codec whose decode reads a text past the limit (a subclass's): its text is kept, and counted no more. */
  private count: Utf8Count | undefined;
  private refusal: { readonly ok: false; readonly error: CodecError } | undefined;
  private shown: unknown = undefined;
  private steps: SameSteps | undefined;

  /**
   * Per wire container, per node: what its partial showed. A Map, not a
   * WeakMap: the parser's live value holds every container for the decoder's
   * life anyway, and a WeakMap entry costs the collector far more.
   */
  private readonly memos = new Map<object, Shown>();
  /**
   * The memos of the last container met complete (written whole since the
   * last walk), held aside from `memos`: its holder lets it go (passed) right
   * after reading it, nearly always, so it costs no map entry; put in the map
   * when another such container is met first. A memo let go here is reused
   * (`spare`): nothing else holds it (frames hold memos of open containers only).
   */
  private asideWire: object | undefined;
  private asideMemo: Shown | undefined;
  private spare: Shown | undefined;
  /** The wire containers being written (the parser's spine) at the last walk: the first `openCount`. */
  private readonly open: object[] = [];
  private openCount = 0;
  /** The string being written: its holder and key (undefined when none, or at the root). */
  private leafHolder: object | undefined;
  private leafKey: string | number | undefined;
  private leafValue: unknown;
  private changed = false;
  /** Over the pieces of the push being read: none placed a value; each only grew the string being written. */
  private placedNothing = true;
  private onlyGrewString = true;
  /** The string being written was handed to a child with its place, and shown as itself: its next put is its slot. */
  private leafPending = false;
  /**
   * The last walk put nothing equal to the string being written (so no
   * construct shows it: each reads such a string only once complete, or
   * shows it as itself); its growth changes nothing shown.
   */
  private leafHidden = false;
  private leafShown = false;
  /** Where the string being written is shown (as itself), for a push that only grows it. */
  private slot: { out: Record<string, unknown> | unknown[]; at: string | number } | undefined;
  /**
   * The partial walk's calls on open containers, outermost first: a chain,
   * since the open containers are (and a construct reads one child of each).
   * A push restarts the walk at the deepest one whose container stayed open
   * (every change lies inside it), not at the root.
   */
  private readonly frames: Frame[] = [];
  /** The frames in use: the first `frameCount` (the rest are stale, overwritten as the walk records). */
  private frameCount = 0;
  /** The frame whose partial is running (-1: none), the parent of any frame recorded. */
  private current = -1;
  /** How many containers from the root stayed open since the last partial walk (parser.changedDepth, the least since). */
  private partialKept = 0;
  private readonly ctx: PartialContext;
  /** The wire schema's candidates, read for early refusal (candidates.ts). */
  private readonly wire: WireCandidates;
  /** The open containers on the spine with their candidates, outermost first (wireImpossible): the first `openedCount`. */
  private readonly openedContainers: object[] = [];
  private readonly openedCandidates: Candidates[] = [];
  private openedCount = 0;
  /** The wire steps to the first thing the wire schema forbids for every completion; settled once found. */
  private impossibleAt: (string | number)[] | undefined;
  /** What decode refuses every completion with: the wire schema broken, or a map key repeated (partial walk). */
  private impossibleCode: "wire-violation" | "duplicate-entry" = "wire-violation";
  /** The string being written may be any string (no const or enum): its growth needs no check. */
  private stringFree = false;
  /** The innermost object allows any member name: a name being written needs no check. */
  private namesFree = false;
  /** How many containers from the root stayed open since the last walk (parser.changedDepth, the least since). */
  private keptDepth = 0;
  /** A number or literal was being read at the last push (its type is checked once, at its start). */
  private wasReading = false;
  /** A string value was being read at the end of the last piece read (so a piece that completes a value completed it). */
  private wasInString = false;
  /** The string being written matched against the const and enum strings its place allows (nameFits: the name). */
  private stringMatch:
    | { holder: object | undefined; step: string | number | undefined; candidates: Candidates; match: PrefixMatch }
    | undefined;
  private nameMatch: { container: object; count: number; candidates: Candidates; match: PrefixMatch } | undefined;
  /** The text length when `opened*` was found. */
  private checkedAt = -1;
  /** The text length from which a completion is decoded again (refuseForWire). */
  private retryAt = 0;
  /**
   * Completion (types.ts `completed`, `stateAt`): per shown container, one
   * record (Held) of where it was put, whether it is reachable from the root
   * and which of its members are still being written. One map, not one per
   * fact; it holds the records of the containers not yet complete (a
   * container's leaves when it completes: a container it lacks has no open
   * member), so it stays as small as the spine instead of growing by every
   * container shown, which cost the push more than anything else on texts of
   * many small containers. The records outlive it where a step's completed
   * pairs or a child's record point at them.
   */
  private readonly held = new Map<object, Held>();
  /** The last container looked up in `held` (a construct puts its members into one container in a row). */
  private heldKey: object | undefined;
  private heldLast: Held | undefined;
  /** The members that became complete in this push, as pairs (holder, key); the whole value as (undefined, ""). */
  private readonly completedNow = new CompletedPairs<Held>();
  private rootComplete = false;
  /** What the last child() call gave, and whether it is still being written (a container on the spine, the open string). */
  private lastChild: unknown;
  private lastChildOpen = false;
  /** For scalars, which keep nothing. */
  private readonly scratch: Shown = newShown(undefined, undefined);
  /** The memo of the open container the last child() call showed (put next, by its holder), else undefined. */
  private lastChildMemo: Shown | undefined;

  constructor(
    private readonly codec: CodecCore<T>,
    private readonly options: DecodeOptions = {},
  ) {
    const limits = options.limits ? { ...codec.limits, ...options.limits } : codec.limits;
    this.parser = new IncrementalParser(limits);
    this.count = new Utf8Count(limits.maxBytes ?? DEFAULT_PARSE_LIMITS.maxBytes);
    // A push that only grows a string reads it from the parser (openString), not from its place: the parser writes
    // it there only when asked (settleOpenString, before the containers are read: the check's walk and the partial walk).
    this.parser.deferOpenString();
    // Options decode refuses whatever the text: refused at once, in decode's words.
    if (limits.maxDepth > MAX_DEPTH_LIMIT) this.refuseAs("");
    this.wire = wireCandidatesOf(codec);
    const aside = asideContext(codec.bundle.plan.defs, limits);
    this.ctx = {
      defs: codec.bundle.plan.defs,
      walk: WALK,
      limits,
      child: (node, wire, holder, key) => this.child(node, wire, holder, key),
      aside: (node, wire) => partialNode(node, wire, aside, blankMemo()),
      complete: (wire, holder, key) => this.complete(wire, holder, key),
      placed: (wire) => this.membersPlaced(wire),
      put: (out, key, value) => this.put(out, key, value),
      repeatedKey: (entries, index) => this.repeatedKey(entries, index),
      passed: (wire) => this.passed(wire),
    };
  }

  get value(): unknown {
    return this.shown;
  }

  push(delta: string): StreamStep {
    if (this.refusal !== undefined) {
      if (this.settled === undefined) this.keep(delta);
      return this.refusal;
    }
    // A delta is read in pieces that end before each comma or closer in it, so that the wire check sees every value
    // before the text moves past it (a model's token often completes one and begins the next): a delta refuses at
    // the piece holding the impossible character, as deltas of one character would. Most deltas have none, or are
    // inside a string they do not end.
    this.placedNothing = true;
    this.onlyGrewString = true;
    if (this.parser.inString ? quoteAt(delta, 0) === -1 : nextCloser(delta, 0) === delta.length) {
      const refused = this.read(delta, delta, delta.length);
      if (refused !== undefined) return refused;
    } else {
      for (let from = 0; from < delta.length; ) {
        const to = pieceEnd(delta, from, this.parser.inString);
        const refused = this.read(delta.slice(from, to), delta, to);
        if (refused !== undefined) return refused;
        from = to;
      }
    }
    this.changed = false;
    // Nothing placed: the partial is as it was. The spine is read again at the next push that places something;
    // the containers it closed are complete now.
    if (this.placedNothing) {
      if (this.partialKept < this.openCount) this.closed();
      return this.step(false);
    }
    const slot = this.slot;
    if (this.onlyGrewString) {
      // The spine is the last push's: the string at its place has grown, nothing else. A string not shown as
      // itself (a tag, a key, a discriminator, JSON text) is read only once complete: nothing shown changes.
      if (slot === undefined) {
        if (this.leafHidden) return this.step(false);
      } else {
        // The slot is an own data member put by the walk: set in place. The string at the slot's holder and key
        // is the parser's open string (the spine is unchanged), read from the parser, not by a keyed load.
        const grown = this.parser.openString;
        if (grown === this.leafValue) return this.step(false); // an escape begun
        this.leafValue = grown;
        (slot.out as Record<string | number, unknown>)[slot.at] = grown;
        return this.step(true);
      }
    }
    this.findSpine();
    this.slot = undefined;
    this.leafPending = false;
    this.leafShown = false;
    const value = this.restart() ? this.shown : this.partialRoot();
    this.partialKept = Number.POSITIVE_INFINITY;
    this.leafHidden = this.leafValue !== undefined && !this.leafShown;
    if (value !== this.shown) {
      this.changed = true;
      if (typeof value === "object" && value !== null && !this.isAdopted(value)) {
        const before = this.shown;
        this.adopt(value, typeof before === "object" && before !== null ? before : undefined);
      }
    }
    this.shown = value;
    // The walk found a repeated map key.
    if (this.impossibleAt !== undefined && this.impossibleCode === "duplicate-entry") {
      const refused = this.refuseForWire();
      if (refused !== undefined) return refused;
    }
    return this.step(this.changed);
  }

  /**
   * One piece of `delta` (it ends at `to`) read by the parser and checked
   * against the wire: a refusal, else undefined. The rest of the delta after
   * a refusal is kept with the text, unread.
   */
  private read(
    piece: string,
    delta: string,
    to: number,
  ): { readonly ok: false; readonly error: CodecError } | undefined {
    const parser = this.parser;
    // A comma or closer ends the number being read: placed and checked first, as whitespace after it would have it,
    // so that no value is passed before it is checked (the parser reads past it in the same push).
    if (parser.reading === "number" && isCloser(piece.charCodeAt(0)) && parser.endNumber()) {
      const refused = this.checkPlaced(parser.pushed);
      if (refused !== undefined) {
        this.keep(delta.slice(to - piece.length));
        return refused;
      }
    }
    this.written += piece.length;
    const pushed = parser.push(piece);
    if (!pushed.ok) {
      this.afterRefusal += delta.slice(to);
      this.written += delta.length - to;
      return this.refuseAs(this.text());
    }
    this.root = pushed.value;
    const refused = this.checkPlaced(parser.pushed);
    if (refused !== undefined) this.keep(delta.slice(to));
    return refused;
  }

  /**
   * Text after a refusal (`rest`), kept for end() until the whole text is
   * past maxBytes in UTF-8 bytes; then decode's answer is settled and the
   * text let go.
   */
  private keep(rest: string): void {
    this.written += rest.length;
    this.afterRefusal += rest;
    if (this.count?.past(this.written, rest, () => this.text()) !== true) return;
    const decoded = this.codec.decode(this.text(), this.options);
    if (decoded.ok || !SETTLED_CODES.has(decoded.error.code)) this.count = undefined;
    else this.settle(decoded);
  }

  private settle(decoded: { readonly ok: false; readonly error: CodecError }): void {
    this.settled = decoded;
    this.afterRefusal = "";
  }

  /** What the parser's last step placed, noted and checked against the wire: a refusal, or undefined. */
  private checkPlaced(did: Pushed): { readonly ok: false; readonly error: CodecError } | undefined {
    const parser = this.parser;
    const kept = parser.changedDepth;
    if (kept < this.keptDepth) this.keptDepth = kept;
    if (kept < this.partialKept) this.partialKept = kept;
    this.placedNothing &&= did === "nothing";
    this.onlyGrewString &&= did === "string";
    if (this.impossibleAt === undefined && this.wireCheckDue(did)) {
      this.impossibleAt = this.wireImpossible();
      this.checkedAt = this.written;
    }
    if (this.impossibleAt === undefined) return undefined;
    return this.refuseForWire();
  }

  /**
   * A step for the value shown. The value is live (one object, updated in
   * place), so the two steps for it are made once, frozen, and given again:
   * a push that completes nothing allocates no step.
   */
  private step(changed: boolean): StreamStep {
    const parser = this.parser;
    // The whole value is complete once nothing is open (asked in that order: most pushes leave a container open).
    if (parser.openCount === 0 && !this.rootComplete && this.shown !== undefined && parser.reading !== "string") {
      this.rootComplete = true;
      this.completedPair(undefined, "");
    }
    if (this.completedNow.count > 0) {
      // Something completed: a step of its own, its pointers made when first read.
      return new CompletedStep(this.shown, changed, this, this.completedNow.take());
    }
    if (this.steps === undefined || this.steps.unchanged.value !== this.shown) this.steps = sameSteps(this.shown);
    return changed ? this.steps.changed : this.steps.unchanged;
  }

  /** The pointers of (holder's record, key) pairs; a holder no longer shown (a union's branch replaced) is left out. */
  pointersOf(pairs: readonly (Held | string | number | undefined)[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < pairs.length; i += 2) {
      const holder = pairs[i] as Held | undefined;
      if (holder === undefined) {
        out.push("");
        continue;
      }
      const base = this.pointerOf(holder);
      if (base !== undefined) out.push(pointerJoin(base, pairs[i + 1] as string | number));
    }
    return out;
  }

  /** Followed by the records' places, not by the map: a complete container's record has left it (see `held`). */
  private pointerOf(record: Held): string | undefined {
    const steps: (string | number)[] = [];
    for (let at: Held = record; at.self !== this.shown; ) {
      if (at.out === undefined || steps.length > MAX_DEPTH_LIMIT) return undefined;
      steps.push(at.key);
      at = at.out;
    }
    let pointer = "";
    for (let i = steps.length - 1; i >= 0; i--) pointer = pointerJoin(pointer, steps[i]!);
    return pointer;
  }

  stateAt(pointer: string): MemberState {
    return memberState(this.shown, this.rootComplete, pointer, (at, key) => {
      const held = this.held.get(at);
      return held !== undefined && isOpen(held, key);
    });
  }

  /**
   * A push that placed nothing closed containers: the ones shown for them
   * are complete (their last member completed at an earlier push, or a
   * number at this one, which places it). Found from the last walk's frames,
   * without a walk; the next walk finds them complete and reports nothing again.
   */
  private closed(): void {
    for (let r = this.frameCount - 1; r >= 0; r--) {
      const frame = this.frames[r]!;
      if (frame.spine < this.partialKept) break;
      const value = frame.value;
      if (typeof value !== "object" || value === null) continue;
      const place = this.held.get(value);
      const holder = place?.out;
      if (holder === undefined || (holder.self as Record<string | number, unknown>)[place!.key] !== value) continue;
      if (!closeMember(holder, place!.key)) continue;
      this.held.delete(value);
      if (holder.adopted) this.completedPair(holder, place!.key);
    }
  }

  /**
   * A container shown at a place for the first time, reachable from the
   * root: its members complete so far are reported (unless `before`, the
   * container it replaces there, showed them complete already), and the
   * open ones adopted in turn. Costs its members, once: a container is
   * adopted as it opens (with few members), or when a union's branch is
   * replaced (rare).
   */
  private adopt(container: object, before: object | undefined, record?: Held): void {
    const open = record ?? this.heldOf(container);
    open.adopted = true;
    const openBefore = before === undefined ? undefined : this.held.get(before);
    // An array's indexes counted, not listed (most containers adopted are arrays opened with one element).
    const keys = Array.isArray(container) ? undefined : Object.keys(container);
    const n = keys === undefined ? (container as unknown[]).length : keys.length;
    for (let k = 0; k < n; k++) {
      const key: string | number = keys === undefined ? k : keys[k]!;
      const member = (container as Record<string | number, unknown>)[key];
      const had =
        before !== undefined && (Array.isArray(before) ? (key as number) < before.length : Object.hasOwn(before, key));
      if (isOpen(open, key)) {
        if (typeof member === "object" && member !== null && !this.isAdopted(member)) {
          const old = had ? (before as Record<string | number, unknown>)[key] : undefined;
          this.adopt(member, typeof old === "object" && old !== null ? old : undefined);
        }
        continue;
      }
      if (!had || (openBefore !== undefined && isOpen(openBefore, key))) this.completedPair(open, key);
    }
  }

  /**
   * The partial walk restarted at the deepest frame whose container stayed
   * open since the last walk: true if what it shows kept its identity (so
   * every frame above it, and the root, show what they showed). False: the
   * walk is to be made from the root.
   */
  private restart(): boolean {
    const kept = this.partialKept;
    const frames = this.frames;
    let r = this.frameCount - 1;
    while (r >= 0 && frames[r]!.spine >= kept) r--;
    // The outermost frame on that container: a union reads it before its branch does (a branch may be chosen anew).
    while (r > 0 && frames[r - 1]!.spine === frames[r]!.spine) r--;
    if (r < 0) return false;
    const frame = frames[r]!;
    this.frameCount = r;
    this.current = r - 1;
    const before = frame.value;
    // The frame's container is open, so its memo is the frame's (no lookup).
    const value = this.onContainer(frame.node, frame.wire, frame.memo);
    this.current = -1;
    // A frame showing a value of its container as its own (onContainer) whose value just completed: the walk is
    // made from the root, so that its holder records the member complete in this push.
    return value === before && this.lastChildOpen;
  }

  end(): Result<T> {
    if (this.settled !== undefined) return this.settled;
    // Read whole and accepted by the parser: decode without parsing the text again.
    if (this.refusal === undefined) {
      const parsed = this.parser.end();
      if (parsed.ok)
        return decodeParsed(this.codec, () => this.text(), parsed.value, this.parser.membersRead, this.options);
    }
    return this.codec.decode(this.text(), this.options);
  }

  /** Decode's refusal of a text every completion of which it refuses alike. */
  private refuseAs(text: string): { readonly ok: false; readonly error: CodecError } {
    const decoded = this.codec.decode(text, this.options);
    // Unreachable: the parser refuses only texts parseJson refuses, and so does decode.
    if (decoded.ok) throw new Error("strictwire: the stream decoder refused a text decode accepts");
    this.refusal = decoded;
    // Past maxBytes (or options decode refuses whatever the text): every longer text gets the same answer.
    if (SETTLED_CODES.has(decoded.error.code)) this.settle(decoded);
    return decoded;
  }

  /**
   * Whether this push may have written something the wire check has not
   * seen: most pushes only grow a string no const or enum restricts, or add
   * whitespace, digits or name characters an open object allows; they skip
   * the walk (a push costs what it added, not the spine's depth).
   */
  private wireCheckDue(did: Pushed): boolean {
    if (did === "string") {
      // A string value grew: no number or literal is being read.
      this.wasReading = false;
      this.wasInString = true;
      return !this.stringFree;
    }
    const parser = this.parser;
    const at = parser.reading;
    const reading = scalarType(at) !== undefined;
    const started = reading && !this.wasReading;
    this.wasReading = reading;
    // A piece that begins inside a string value and ends with a value completed closed that string (a piece ends
    // before the comma or closer after it): where any string is allowed (stringFree, found for it when it began),
    // its completion breaks nothing, and the check is not asked.
    const closedFree = at === "completed" && this.wasInString && this.stringFree;
    this.wasInString = at === "string";
    if (did !== "nothing") return !closedFree;
    if (at === "named" || started) return true;
    if (at !== "name" || this.namesFree) return false;
    const prefix = parser.openString;
    // A name growing in the object the last walk ended in (nothing opened or closed since): checked there, no walk.
    const n = this.openedCount;
    if (this.keptDepth < n || n === 0 || Array.isArray(this.openedContainers[n - 1])) return true;
    if (!this.nameFits(this.openedCandidates[n - 1]!, this.openedContainers[n - 1]!, prefix)) {
      this.impossibleAt = [...this.spinePath(n - 1), prefix];
      this.checkedAt = this.written;
    }
    return false;
  }

  /**
   * The wire steps to what the wire schema already forbids for every
   * completion, on the parser's spine: a container's type, a complete member
   * name, the scalar being read (see candidates.ts); undefined if nothing.
   * A container is checked when it is opened: those that stayed open since
   * the last check are kept in `opened*` (outermost first, with their
   * candidates), and the walk starts below them.
   */
  private wireImpossible(): (string | number)[] | undefined {
    const parser = this.parser;
    parser.settleOpenString();
    const length = parser.spineLength;
    // The containers that stayed open since the last check are as it found them (checked when they opened).
    const kept = Math.min(this.keptDepth, this.openedCount);
    this.keptDepth = Number.POSITIVE_INFINITY;
    const containers = this.openedContainers;
    const opened = this.openedCandidates;
    const start = Math.min(kept, length);
    let value: unknown =
      start < kept
        ? containers[start]
        : start === 0
          ? this.root
          : (containers[start - 1] as Record<string | number, unknown>)[parser.stepAt(start - 1)];
    let found: (string | number)[] | undefined;
    // The candidates the value at depth i reached (its parent's at its step), read where it is new.
    let reached: Candidates | undefined =
      start < kept ? undefined : start === 0 ? this.wire.root : opened[start - 1]!.at(parser.stepAt(start - 1));
    for (let i = start; ; i++) {
      if (typeof value === "object" && value !== null) {
        let own: Candidates;
        if (i < kept) own = opened[i]!;
        else {
          own = reached!.allowing(Array.isArray(value) ? "array" : "object");
          if (own.empty) found ??= this.spinePath(i);
          containers[i] = value;
          opened[i] = own;
        }
        this.openedCount = i + 1;
        if (i === length) {
          if (found !== undefined) return found;
          // The scalar just completed in it: its type and exact value.
          const at = parser.reading;
          if (at === "completed") {
            const done = parser.stepAt(i);
            const scalar = (value as Record<string | number, unknown>)[done];
            return own.at(done).scalarPossible(scalar) ? undefined : [...this.spinePath(i), done];
          }
          if (Array.isArray(value)) return undefined;
          this.namesFree = own.namePossible(undefined);
          if (at === "named") {
            const name = parser.stepAt(i) as string;
            return own.at(name).empty ? [...this.spinePath(i), name] : undefined;
          }
          // A member name being written that no declared name begins with.
          if (at !== "name") return undefined;
          const prefix = parser.openString;
          return this.nameFits(own, value, prefix) ? undefined : [...this.spinePath(i), prefix];
        }
        const step = parser.stepAt(i);
        reached = own.at(step);
        value = (value as Record<string | number, unknown>)[step];
        continue;
      }
      this.openedCount = i;
      if (found !== undefined) return found;
      // The scalar being read, or the root not yet started.
      if (typeof value === "string") {
        const strings = reached!.allowing("string");
        this.stringFree = strings.anyString;
        if (this.stringFree) {
          parser.takeAppended(false);
          return undefined;
        }
        // The string is known by where it is written: the matcher made for it reads only what it gained since.
        const holder = length === 0 ? undefined : containers[length - 1];
        const step = length === 0 ? undefined : parser.stepAt(length - 1);
        let m = this.stringMatch;
        let added: string;
        if (m === undefined || m.holder !== holder || m.step !== step || m.candidates !== strings) {
          // One record and one matcher per decoder, started again for each string.
          if (m === undefined) {
            m = { holder, step, candidates: strings, match: strings.stringMatch()! };
            this.stringMatch = m;
          } else {
            m.holder = holder;
            m.step = step;
            m.candidates = strings;
            m.match = strings.stringMatch(m.match)!;
          }
          parser.takeAppended(true);
          added = value;
        } else added = parser.takeAppended(true);
        return m.match.grow(added) ? undefined : this.spinePath(length);
      }
      const type = scalarType(parser.reading);
      return type !== undefined && reached!.allowing(type).empty ? this.spinePath(length) : undefined;
    }
  }

  /**
   * Whether a member name being written in `container` may still be one its
   * candidates declare. The name is known by its container and the count of
   * names the text completed before it, so a push compares only what it added.
   */
  private nameFits(candidates: Candidates, container: object, prefix: string): boolean {
    const parser = this.parser;
    const count = parser.membersRead;
    let m = this.nameMatch;
    let added: string;
    if (m === undefined || m.container !== container || m.count !== count || m.candidates !== candidates) {
      const match = candidates.nameMatch(m?.match);
      if (match === undefined) {
        parser.takeAppended(false);
        return true;
      }
      // One record and one matcher per decoder, started again for each name.
      if (m === undefined) {
        m = { container, count, candidates, match };
        this.nameMatch = m;
      } else {
        m.container = container;
        m.count = count;
        m.candidates = candidates;
        m.match = match;
      }
      parser.takeAppended(true);
      added = prefix;
    } else added = parser.takeAppended(true);
    return m.match.grow(added);
  }

  /** The parser's spine, its first `n` steps. */
  private spinePath(n: number): (string | number)[] {
    const steps: (string | number)[] = [];
    for (let i = 0; i < n; i++) steps.push(this.parser.stepAt(i));
    return steps;
  }

  /**
   * Decode's refusal of the text completed simply (candidates.ts): the value
   * being written finished, each open object's missing required members
   * filled, the containers closed. Given only if decode refuses that
   * completion as a wire violation at the impossible place or an ancestor of
   * it (in the original's terms); else tried again once the text has
   * doubled, so the decodes tried cost at most twice one decode of the text.
   */
  private refuseForWire(): { readonly ok: false; readonly error: CodecError } | undefined {
    const at = this.impossibleAt!;
    this.parser.settleOpenString();
    if (this.written < this.retryAt) return undefined;
    if (this.checkedAt !== this.written) this.wireImpossible(); // the open containers now
    const parser = this.parser;
    let end = parser.openValueEnd();
    const reading = parser.reading;
    // A member named with no value yet; a name being written.
    let pending = reading === "named" ? (parser.stepAt(parser.openCount - 1) as string) : undefined;
    let prefix = reading === "name" ? parser.openString : undefined;
    // After an object's comma a member must follow: a name begun, nothing of it written yet (not even its quote).
    const opening = end === undefined && reading === "name-due" ? '"' : "";
    if (opening !== "") prefix = "";
    // A member name being written that begins a declared name not yet written is finished as that name, so that the
    // completion breaks nothing more (a delta may end just after a name's opening quote, or just after the comma).
    if (prefix !== undefined && this.openedCount > 0) {
      const inner = this.openedContainers[this.openedCount - 1]! as Record<string, unknown>;
      const declared = this.openedCandidates[this.openedCount - 1]!.declaredName(prefix, inner);
      if (declared !== undefined) {
        end = `${opening}${JSON.stringify(declared.slice(prefix.length)).slice(1, -1)}":null`;
        pending = declared;
        prefix = undefined;
      }
    }
    if (end === undefined) return undefined; // inside an escape, or no name to finish: tried again at the next push
    this.retryAt = this.written * 2;
    // A value not begun (a member named, an element after a comma) gets one its schema may take, not null, so that
    // the completion breaks nothing more.
    if (end.endsWith("null") && this.openedCount > 0) {
      const inner = this.openedContainers[this.openedCount - 1]!;
      const step = pending ?? (Array.isArray(inner) ? inner.length : undefined);
      const filler = step === undefined ? undefined : fillerFor(this.openedCandidates[this.openedCount - 1]!.at(step));
      if (filler !== undefined) end = end.slice(0, -"null".length) + filler;
    }
    let suffix = end;
    for (let d = this.openedCount - 1; d >= 0; d--) {
      const container = this.openedContainers[d]!;
      const candidates = this.openedCandidates[d]!;
      if (Array.isArray(container)) {
        suffix += "]";
        continue;
      }
      const names = Object.keys(container);
      // The member on the spine (its value not yet placed), the one named with no value, the name being written.
      const onSpine = d < parser.spineLength ? parser.stepAt(d) : undefined;
      if (typeof onSpine === "string" && !names.includes(onSpine)) names.push(onSpine);
      const innermost = d === this.openedCount - 1;
      if (innermost && pending !== undefined && !names.includes(pending)) names.push(pending);
      if (innermost && prefix !== undefined) names.push(prefix);
      let written = names.length > 0;
      const fit = bestFit(candidates.list, container as Record<string, unknown>, names);
      for (const name of fit === undefined ? [] : requiredOf(fit)) {
        if (names.includes(name)) continue;
        const filler = fillerFor(candidates.only(fit!).member(name));
        if (filler === undefined) return undefined;
        suffix += `${written ? "," : ""}${JSON.stringify(name)}:${filler}`;
        written = true;
      }
      suffix += "}";
    }
    const completed = this.text() + suffix;
    const decoded = this.codec.decode(completed, this.options);
    if (decoded.ok || decoded.error.code !== this.impossibleCode) return undefined;
    let pointer = "";
    for (const step of at) pointer = pointerJoin(pointer, step);
    const where = originalPath(this.codec.bundle.plan, JSON.parse(completed), pointer);
    const path = decoded.error.path;
    if (path !== where && !where.startsWith(`${path}/`) && path !== "") return undefined;
    this.refusal = decoded;
    return decoded;
  }

  private text(): string {
    return this.parser.text() + this.afterRefusal;
  }

  /** The open containers and the string being written, from the parser's spine. */
  private findSpine(): void {
    const parser = this.parser;
    parser.settleOpenString();
    const n = parser.openCount;
    for (let i = 0; i < n; i++) this.open[i] = parser.openAt(i);
    this.openCount = n;
    this.leafHolder = undefined;
    this.leafKey = undefined;
    this.leafValue = undefined;
    if (parser.reading !== "string") return;
    if (n === 0) {
      this.leafValue = this.root;
      return;
    }
    const holder = this.open[n - 1]!;
    const key = parser.stepAt(n - 1);
    this.leafHolder = holder;
    this.leafKey = key;
    this.leafValue = (holder as Record<string | number, unknown>)[key];
  }

  /**
   * How many members an open wire object has placed: those named in it, less the last if its value is not placed
   * yet (a number or literal is placed once complete). Undefined when it is not on the spine (complete).
   */
  private membersPlaced(wire: object): number | undefined {
    const i = this.onSpine(wire);
    if (i < 0) return undefined;
    const named = this.parser.membersAt(i);
    if (named === 0) return 0;
    const key = this.parser.stepAt(i);
    return typeof key === "string" && Object.hasOwn(wire, key) ? named : named - 1;
  }

  /** Where a container is on the spine the last walk read (-1: not there, so complete). */
  private onSpine(wire: object): number {
    for (let i = this.openCount - 1; i >= 0; i--) if (this.open[i] === wire) return i;
    return -1;
  }

  private partialRoot(): unknown {
    const { plan } = this.codec.bundle;
    const root = this.root;
    let args: unknown = root;
    if (plan.envelope !== "bare") {
      if (!isPlainObject(root) || !Object.hasOwn(root, "arguments")) return undefined;
      args = root.arguments;
    }
    if (args === undefined) return undefined;
    this.frameCount = 0;
    this.current = -1;
    const value = this.child(plan.root, args);
    return value === ABSENT ? undefined : value;
  }

  private child(node: Node, wire: unknown, holder?: object, key?: string | number): unknown | Absent {
    if (typeof wire !== "object" || wire === null) {
      const value = partialNode(node, wire, this.ctx, this.scratch);
      const leaf = this.leafValue;
      // The string being written, shown as itself (told by its place when given, else by its value).
      const open =
        value === wire &&
        leaf !== undefined &&
        (holder !== undefined ? holder === this.leafHolder && key === this.leafKey : wire === leaf);
      if (open && holder !== undefined) this.leafPending = true;
      this.lastChild = value;
      this.lastChildOpen = open;
      this.lastChildMemo = undefined;
      return value;
    }
    // The container the last walk recorded at this frame, for the same node: its memo, without a map lookup (the
    // walk goes down the spine again at every push that places a value).
    const recorded = this.frames[this.current + 1];
    if (recorded !== undefined && recorded.wire === wire && recorded.node === node && !recorded.memo.gone) {
      const memo = recorded.memo;
      if (memo.done) {
        this.lastChild = memo.value;
        this.lastChildOpen = false;
        this.lastChildMemo = undefined;
        return memo.value;
      }
      return this.onContainer(node, wire, memo);
    }
    const first = wire === this.asideWire ? this.asideMemo : this.memos.get(wire);
    let memo = first;
    while (memo !== undefined && memo.node !== node) memo = memo.next;
    if (memo?.done === true) {
      this.lastChild = memo.value;
      this.lastChildOpen = false;
      this.lastChildMemo = undefined;
      return memo.value;
    }
    if (memo === undefined) {
      const spare = this.spare;
      if (spare === undefined) memo = newShown(node, first);
      else {
        this.spare = undefined;
        memo = resetShown(spare, node, first);
      }
      if (this.onSpine(wire) >= 0) this.memos.set(wire, memo);
      else {
        if (this.asideWire !== undefined && this.asideWire !== wire) this.memos.set(this.asideWire, this.asideMemo!);
        this.asideWire = wire;
        this.asideMemo = memo;
      }
    }
    return this.onContainer(node, wire, memo);
  }

  /** A node's partial on a wire container not yet complete, with its memo. */
  private onContainer(node: Node, wire: object, memo: Shown): unknown | Absent {
    const spine = this.onSpine(wire);
    if (spine < 0) {
      const value = partialNode(node, wire, this.ctx, memo);
      memo.value = value;
      memo.done = true;
      this.lastChild = value;
      this.lastChildOpen = false;
      this.lastChildMemo = undefined;
      return value;
    }
    // On the spine: recorded as the running frame's child, for a later push to restart at.
    const parent = this.current;
    const at = parent + 1;
    // Frames are kept and written over, not made per walk.
    let frame = this.frames[at];
    if (frame === undefined) {
      frame = { node, wire, memo, spine, value: undefined };
      this.frames[at] = frame;
    } else {
      frame.node = node;
      frame.wire = wire;
      frame.memo = memo;
      frame.spine = spine;
    }
    this.frameCount = at + 1;
    this.current = at;
    this.lastChild = undefined;
    const value = partialNode(node, wire, this.ctx, memo);
    this.current = parent;
    memo.value = value;
    frame.value = value;
    // A node that shows a value of its container as its own (a union's {"branch", "value"}) is as open as that
    // value: complete once the value is, not once its container closes.
    const through = value === this.lastChild && value !== undefined;
    this.lastChildOpen = through ? this.lastChildOpen : true;
    this.lastChild = value;
    this.lastChildMemo = memo;
    return value;
  }

  /**
   * A map entry names a key an earlier entry has: decode
   * refuses every completion (duplicate-entry, unless the rest of the text
   * breaks the wire schema, which decode reports first). Refused as the wire
   * check's findings are, at the entry's key.
   */
  private repeatedKey(entries: object, index: number): void {
    if (this.impossibleAt !== undefined) return;
    const d = this.onSpine(entries);
    if (d < 0) return; // the whole map written within this push: end() refuses it
    const steps = this.spinePath(d);
    steps.push(index, "key");
    this.impossibleAt = steps;
    this.impossibleCode = "duplicate-entry";
    this.checkedAt = -1;
  }

  /** A complete container its holder will not read again: its memos go (a memo is kept only while it may be read). */
  private passed(wire: unknown): void {
    if (typeof wire !== "object" || wire === null) return;
    if (wire === this.asideWire) {
      const aside = this.asideMemo!;
      this.asideWire = undefined;
      this.asideMemo = undefined;
      if (aside.next === undefined) {
        // Alone (no other node's memo for it): held by nothing now, so kept for the next memo made.
        aside.gone = true;
        this.spare = aside;
        return;
      }
      for (let memo: Shown | undefined = aside; memo !== undefined; memo = memo.next) memo.gone = true;
      this.memos.delete(wire);
      return;
    }
    for (let memo = this.memos.get(wire); memo !== undefined; memo = memo.next) memo.gone = true;
    this.memos.delete(wire);
  }

  private complete(wire: unknown, holder?: object, key?: string | number): boolean {
    if (typeof wire === "object" && wire !== null) return this.onSpine(wire) < 0;
    if (typeof wire !== "string" || this.leafValue === undefined) return true;
    if (holder === undefined) return wire !== this.leafValue;
    return holder !== this.leafHolder || key !== this.leafKey;
  }

  private put(out: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
    // The put right after the string's own child call is its slot.
    if (this.leafPending && value === this.leafValue) {
      this.slot = { out, at: key };
    }
    this.leafPending = false;
    if (value === this.leafValue) this.leafShown = true;
    const open = value === this.lastChild && this.lastChildOpen;
    let had: boolean;
    let before: unknown;
    if (Array.isArray(out)) {
      had = (key as number) < out.length;
      before = had ? out[key as number] : undefined;
    } else {
      had = Object.hasOwn(out, key);
      before = had ? out[key as string] : undefined;
    }
    this.completion(out, key, value, open, had, before);
    if (had && before === value) return;
    if (Array.isArray(out)) out[key as number] = value;
    else setOwn(out, String(key), value);
    this.changed = true;
  }

  /** A member completed in this push: its holder and key (undefined and "" for the whole value). */
  private completedPair(holder: Held | undefined, key: string | number): void {
    this.completedNow.add(holder, key);
  }

  /** The record of a shown container, made at its first use. */
  private heldOf(container: object): Held {
    if (container === this.heldKey) return this.heldLast!;
    let held = this.held.get(container);
    if (held === undefined) {
      held = { self: container, out: undefined, key: "", adopted: false, open: undefined, more: undefined };
      this.held.set(container, held);
    }
    this.heldKey = container;
    this.heldLast = held;
    return held;
  }

  private isAdopted(container: object): boolean {
    return (container === this.heldKey ? this.heldLast : this.held.get(container))?.adopted === true;
  }

  /** What a put tells of completion: a member still being written, or one that completed (reported once). */
  private completion(
    out: object,
    key: string | number,
    value: unknown,
    open: boolean,
    had: boolean,
    before: unknown,
  ): void {
    const container = typeof value === "object" && value !== null;
    if (open) {
      const holder = this.holderOf(out);
      openMember(holder, key);
      if (container) {
        const shown = this.placedOpen(value, holder, key);
        if (!shown.adopted && holder.adopted) {
          this.adopt(
            value,
            typeof before === "object" && before !== null && before !== value ? before : undefined,
            shown,
          );
        }
      }
      return;
    }
    // A member put complete: a holder with no record has no open member and is not reachable (most containers are
    // written whole within a push or two: they get no record at all).
    const holder = this.recordOf(out);
    if (holder === undefined) return;
    const completed = closeMember(holder, key);
    // A container that was being written is complete: none of its members is open, so its record leaves the map
    // (which holds the open containers' only, so that it stays small); pointers follow the records themselves.
    if (completed && container && before === value) this.held.delete(value);
    if (!holder.adopted) return;
    if (completed || !had) this.completedPair(holder, key);
    // A container replacing another (a union's branch chosen anew) complete: its members the other did not show complete.
    if (container && typeof before === "object" && before !== null && before !== value) {
      this.placed(value, holder, key);
      this.adopt(value, before);
    }
  }

  /**
   * The record of `out`, the container the running frame's node shows (kept on its memo), or any container (the
   * map's). A record leaves the map only once its container is complete, when no member is put in it open again.
   */
  private holderOf(out: object): Held {
    const frame = this.current >= 0 ? this.frames[this.current] : undefined;
    if (frame === undefined) return this.heldOf(out);
    const memo = frame.memo;
    if (memo.heldFor === out) return memo.held!;
    const held = this.heldOf(out);
    memo.held = held;
    memo.heldFor = out;
    return held;
  }

  /** The record of `out` if it has one (none is made): kept on the running frame's memo, else the map's. */
  private recordOf(out: object): Held | undefined {
    if (out === this.heldKey) return this.heldLast;
    const frame = this.current >= 0 ? this.frames[this.current] : undefined;
    if (frame !== undefined && frame.memo.heldFor === out) return frame.memo.held;
    return this.held.get(out);
  }

  /** placed() for the open container the last child() call showed: its record kept on its memo. */
  private placedOpen(container: object, out: Held, key: string | number): Held {
    const memo = this.lastChildMemo;
    if (memo === undefined || memo.value !== container) return this.placed(container, out, key);
    if (memo.heldFor === container) {
      const held = memo.held!;
      if (held.out === undefined) {
        held.out = out;
        held.key = key;
      }
      return held;
    }
    const held = this.placed(container, out, key);
    memo.held = held;
    memo.heldFor = container;
    return held;
  }

  /** The record of a container put at `out[key]`, its place noted at its first put. */
  private placed(container: object, out: Held, key: string | number): Held {
    const held = this.heldOf(container);
    if (held.out === undefined) {
      held.out = out;
      held.key = key;
    }
    return held;
  }
}

/** decode's refusals that no text read after them changes: a text past maxBytes, options it refuses whatever the text. */
const SETTLED_CODES: ReadonlySet<string> = new Set(["input-too-large", "invalid-options"]);

/**
 * Where `aside` shows a complete value to judge it: fresh memos, every value
 * complete, puts into containers nobody is shown; the walk's own state (its
 * memos, its frames, the step's `changed`, the members completed) untouched.
 */
function asideContext(defs: Readonly<Record<string, Node>>, limits: ParseLimits): PartialContext {
  const ctx: PartialContext = {
    defs,
    walk: WALK,
    limits,
    child: (node, wire) => partialNode(node, wire, ctx, blankMemo()),
    aside: (node, wire) => partialNode(node, wire, ctx, blankMemo()),
    complete: () => true,
    placed: () => undefined,
    put: (out, key, value) => {
      if (Array.isArray(out)) out[key as number] = value;
      else setOwn(out, String(key), value);
    },
    repeatedKey: () => {},
    passed: () => {},
  };
  return ctx;
}

function blankMemo(): PartialMemo {
  return { value: undefined, read: 0, settled: undefined, fields: undefined, keys: undefined };
}

/** A memo let go, made new for `node` (every field written, as newShown does). */
function resetShown(memo: Shown, node: Node | undefined, next: Shown | undefined): Shown {
  memo.value = undefined;
  memo.read = 0;
  memo.settled = undefined;
  memo.fields = undefined;
  memo.keys = undefined;
  memo.done = false;
  (memo as { node: Node | undefined }).node = node;
  memo.next = next;
  memo.gone = false;
  memo.held = undefined;
  memo.heldFor = undefined;
  return memo;
}

function newShown(node: Node | undefined, next: Shown | undefined): Shown {
  return {
    value: undefined,
    read: 0,
    settled: undefined,
    fields: undefined,
    keys: undefined,
    done: false,
    node,
    next,
    gone: false,
    held: undefined,
    heldFor: undefined,
  };
}

/** The JSON type of the number or literal being read (known from its first character), else undefined. */
function scalarType(at: Reading): "number" | "boolean" | "null" | undefined {
  return at === "number" || at === "boolean" || at === "null" ? at : undefined;
}

/**
 * What completion knows of one shown container: where it was first put (its
 * holder and key; a pointer is made by following them to the root), whether
 * it is reachable from the root (a member put in it is reported when it
 * completes), and the keys of its members still being written: at most one
 * per container but for a moment in a walk, so one field, and a set only
 * for more. A member shown and not open is complete.
 */
interface Held {
  /** The container this record is of. */
  readonly self: object;
  /** The record of the container it was first put in (undefined until then), and its key there. */
  out: Held | undefined;
  key: string | number;
  adopted: boolean;
  open: string | number | undefined;
  more: Set<string | number> | undefined;
}

function isOpen(held: Held, key: string | number): boolean {
  return held.open === key || held.more?.has(key) === true;
}

function openMember(held: Held, key: string | number): void {
  if (held.open === undefined) held.open = key;
  else if (held.open !== key) {
    held.more ??= new Set();
    held.more.add(key);
  }
}

/** Whether the member was open (it is not now). */
function closeMember(held: Held, key: string | number): boolean {
  if (held.open === key) {
    held.open = undefined;
    const more = held.more;
    if (more !== undefined && more.size > 0) {
      const next = more.values().next().value!;
      more.delete(next);
      held.open = next;
    }
    return true;
  }
  return held.more?.delete(key) === true;
}

/** The index of the first quote of `delta` from `start`, else -1 (a loop on a short delta: cheaper than a native search). */
function quoteAt(delta: string, start: number): number {
  const n = delta.length;
  if (n - start > 32) return delta.indexOf('"', start);
  for (let i = start; i < n; i++) if (delta.charCodeAt(i) === 0x22) return i;
  return -1;
}

/**
 * The index of the first comma or closer of `delta` from `start`, else its
 * length (deltas are short: a loop costs less than a regular expression).
 */
/** A comma, '}' or ']'. */
function isCloser(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d;
}

function nextCloser(delta: string, start: number): number {
  for (let i = start; i < delta.length; i++) {
    const c = delta.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || c === 0x5d) return i;
  }
  return delta.length;
}

/**
 * Where the piece of `delta` from `from` ends: before the next comma or
 * closer after its first character, past the quote that ends the string being
 * written, if any (an escaped quote ends no string: then a piece may end
 * inside it, which costs one more push and changes nothing).
 */
function pieceEnd(delta: string, from: number, inString: boolean): number {
  let start = from + 1;
  if (inString) {
    const quote = quoteAt(delta, from);
    if (quote === -1) return delta.length;
    start = Math.max(start, quote + 1);
  }
  return nextCloser(delta, start);
}
