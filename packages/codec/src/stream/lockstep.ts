/**
 * The stream decoder's fast path (issue 42): the partial source value built in
 * step with the text, one tree, no walk.
 *
 * The walking decoder (decoder.ts) keeps the incremental parser's wire tree
 * and maps it to the source form after each push; on texts of many small
 * containers the second tree, the memos and the walk cost several times the
 * floor. Here each character is read once, by a tokenizer that keeps no tree:
 * the container being written is a frame that knows its node and its wire
 * candidates, and each value is put into the partial value by the frame that
 * owns its place, as it is read. The wire check (candidates.ts) runs in the
 * same step; completion is reported from the frames, and a member's state is
 * read from them.
 *
 * It reads the constructs whose source form follows the text directly:
 * scalars, arrays, objects whose members are required, native, tagged
 * (`{"state", "value"}`) or inline (`{"state", ...members}`), mixed objects
 * (`{"fields", "entries"}`), maps (entries), references, any JSON, and unions
 * read by JSON type, by a discriminator or by a tag (`{"branch", "value"}`:
 * its value shown at the union's place) (`readerOf`). An object several
 * branches of a `same` union take is shown as written, through the first
 * branch its members fit (a SAME frame; a container member is read when every
 * branch left declares it alike, else it hands over); an array several array
 * branches take, likewise, its elements judged as one member (an ARRAY frame
 * with `same`). An inline member or a discriminated object shows nothing until
 * its first member decides it (the state, the discriminator; any other first
 * hands over). A plan with any other (a tuple, JSON text, compact or minimal
 * presence, an inline nullable object) gets the walking decoder
 * (`fastPathFits`).
 *
 * end() of a text read whole here is decode's result without a second read
 * of the text by the codec's own parser: the text is in the plain subset,
 * within the limits, with no repeated name, so native JSON.parse builds what
 * decode's parser would, and decodeParsed runs the generated pass on it
 * (anything but its plain success is decode(text)'s own answer).
 *
 * Only the common text is read here: JSON in a plain subset (no surrogate
 * escapes, numbers of at most 15 digits and no exponent, the limits not near).
 * Anything else, and anything the wire check or the JSON grammar might refuse,
 * hands the stream to the walking decoder: the deltas so far are pushed into
 * it again, and it answers from then on. So every refusal, and everything
 * after it, is the walking decoder's own, in decode's words; what this path
 * shows before handing over is what the walking decoder shows (tested push by
 * push against it). A hand-over changes the partial value's object: its step
 * says `changed`.
 */
import { type CodecCore, type DecodeOptions, decodeParsed } from "../codec.js";
import { referent } from "../constructs/reference.js";
import { wireTypesOf } from "../constructs/registry.js";
import { constantsOf } from "../constructs/union.js";
import { pointerJoin, type Result } from "../errors.js";
import type { Field, MixedNode, Node, ObjectNode, UnionNode } from "../ir/nodes.js";
import { canonicalJson, type JsonType, setOwn } from "../json.js";
import { hexDigit, simpleEscape } from "../parse/chars.js";
import { DEFAULT_PARSE_LIMITS, MAX_DEPTH_LIMIT } from "../parse/parser.js";
import { type Candidates, type PrefixMatch, type WireCandidates, wireCandidatesOf } from "./candidates.js";
import { CompletedPairs, CompletedStep, memberState, type SameSteps, sameSteps } from "./state.js";
import type { MemberState, StreamDecoder, StreamStep } from "./types.js";

/** What a frame's container is, for the node that reads it. */
const OBJECT = 0; // a wire object for an object node: shown as an object of its declared members
const ARRAY = 1; // a wire array for an array node, or for any JSON: shown element by element
const MAP = 2; // a wire array of entries (a map, or any JSON's object): shown as an object
const TAG = 3; // a tagged member's {"state", "value"}: its value shown at the member's place once present
const ENTRY = 4; // one {"key", "value"} entry: its value shown at its key once the key is complete
const ANY_OBJECT = 5; // any JSON's object, {"entries": [...]}: shown as an object
const ENVELOPE = 6; // {"arguments": ...}: the arguments shown as the whole value
const MIXED = 7; // a mixed object's {"fields", "entries"}: both shown as members of its one object
// An object whose first member decides what it shows (nothing is shown before): it becomes an OBJECT then.
const INLINE = 8; // an inline optional member's {"state", ...members}: its members' object once the state says present
const CHOOSING = 9; // an object under a union read by a discriminator: the branch's object once the discriminator is complete
const BRANCH = 10; // a union's {"branch", "value"}: its value shown at the union's place, through the branch numbered
// An object several object branches of a `same` union take: its members shown as written, through the first branch
// they fit (`SameBranches`); a new object once that branch changes, as the walking decoder shows it. (An array
// several array branches take is an ARRAY frame with `same`, its elements judged alike.)
const SAME = 11;

/** Where a shown container sits: its holder's record and its key there (pointers are made by following them). */
interface Place {
  readonly up: Place | undefined;
  readonly key: string | number;
}
/** The whole value's record. */
const ROOT: Place = { up: undefined, key: "" };

/** One open wire container. */
interface Frame {
  kind: number;
  /** The node of its members (object: unused; array: items; map and entry: the value's; any: the any node). */
  node: Node | undefined;
  /** An object's declared members; a mixed object's, on its entries' frame. */
  fields: ReadonlyMap<string, Field> | undefined;
  /** Where its members are shown, and that container's record (ROOT for the whole value; undefined: none). */
  out: Record<string, unknown> | unknown[] | undefined;
  rec: Place | undefined;
  /** The wire candidates of this container. */
  cand: Candidates;
  /** The member being written: its name (objects), or the count of elements so far (arrays). */
  name: string;
  /** An object's member being written: its declared field (undefined: undeclared), and its candidates. */
  field: Field | undefined;
  member: Candidates | undefined;
  count: number;
  /**
   * Member names read, to refuse a repeated one (hands over): the first `namesAt`. The array is kept with the
   * frame and written over (`length = 0` would give its room back, and each object would grow it again).
   */
  readonly names: string[];
  namesAt: number;
  /** The names read, once there are more than LINEAR_NAMES (then `names` keeps only the first ones). */
  nameSet: Set<string> | undefined;
  /** The key under which the member being written is shown in `out` (undefined: nothing shown being written). */
  openKey: string | number | undefined;
  /** Tagged member: the state string once complete; entry: the key once complete. */
  word: string | undefined;
  /** Map: the complete keys (a repeated one hands over: decode refuses it). */
  keys: Set<string> | undefined;
  /**
   * A container this frame shows, opened in push `openedIn` when completed members numbered `mark`: one that
   * closes in the push that opened it is reported alone, its members not (so the walking decoder reports them).
   */
  shows: boolean;
  openedIn: number;
  mark: number;
  /**
   * The frame that shows this one's values (tags, entries and branches show into their holder's `out`; an inline
   * member or a discriminated object is shown there once decided). Undefined for a branch or a discriminated object
   * at the root: shown as the whole value.
   */
  holder: Frame | undefined;
  /** A tagged member's, an entry's, a branch's or an undecided object's key in the holder's `out`. */
  at: string | number;
  /**
   * A SAME object's branches, or an array's several branches take (`alive`: a bit per branch its members or
   * elements fit; `chosen`: the first, which shows it).
   */
  same: SameBranches | undefined;
  alive: number;
  chosen: number;
  /**
   * With `same`: the push in which a container member (or element) last closed. The walking decoder shows a new branch's
   * object with new containers, so one that closed in the push its branch changes is listed alone, not its members.
   */
  closedIn: number;
}

/** Tokenizer modes. */
const VALUE = 0; // a value due (after '[', ':' or an array's ',', or at the start)
const VALUE_OR_CLOSE = 1; // after '['
const NAME_OR_CLOSE = 2; // after '{'
const NAME = 3; // after an object's ','
const COLON = 4;
const AFTER = 5; // after a value
const STRING = 6;
const NUMBER = 7;
const LITERAL = 8;
const DONE = 9;

/** Number states: which characters may follow. */
const N_SIGN = 0; // after '-'
const N_ZERO = 1; // after a leading 0
const N_INT = 2;
const N_DOT = 3;
const N_FRAC = 4;

/** Hands the stream over: thrown inside a push, caught by it (never escapes). */
const HAND_OVER: unique symbol = Symbol("hand over");

/** The text kept flat in chunks of this many UTF-16 units; a string made flat first at this length. */
const CHUNK = 4096;
const FLAT_GROWN = 1024;
/** An object's names compared one by one up to this many; past it through a Set, so a wide object stays linear. */
const LINEAR_NAMES = 16;
/** The lengths of the deltas joined into chunks, in typed blocks of this many (see `lengths`). */
const LENGTHS_BLOCK = 8192;
const EMPTY_BLOCK = new Uint32Array(0);
/** Where a string is converted to a number to make it flat (exported: the conversion is not left out as unused). */
export let flatSink = 0;

/** Whether the fast path reads every node of this plan (kept per codec). */
const fits = new WeakMap<object, boolean>();

/** Whether the fast path reads `codec`'s plan: its nodes are all of the kinds it knows, with the presence it knows. */
export function fastPathFits(codec: CodecCore<unknown>): boolean {
  let found = fits.get(codec);
  if (found === undefined) {
    const { plan } = codec.bundle;
    const seen = new Set<Node>();
    const fieldOk = (f: Field): boolean =>
      (!f.optional ||
        f.presence === "native" ||
        (f.presence === "tagged" && f.tags === undefined) ||
        (f.presence === "inline" && f.tags === undefined && inlineObject(f.node, plan.defs) !== undefined)) &&
      ok(f.node);
    const ok = (node: Node): boolean => {
      if (seen.has(node)) return true;
      seen.add(node);
      switch (node.kind) {
        case "scalar":
        case "any":
          return true;
        case "array":
          return ok(node.items);
        case "map":
          return ok(node.value);
        case "ref":
          return ok(referent(node, plan.defs));
        case "union":
          return node.branches.every(ok);
        case "object":
          return node.fields.every(fieldOk);
        case "mixed":
          return node.fields.every(fieldOk) && ok(node.value);
        default:
          return false;
      }
    };
    found = ok(plan.root);
    fits.set(codec, found);
  }
  return found;
}

/**
 * The object an inline member's members make: undefined where the walking decoder shows it otherwise (a nullable
 * object's union, an object that declares a member named `state` beside the tag).
 */
function inlineObject(node: Node, defs: Readonly<Record<string, Node>>): ObjectNode | undefined {
  for (let hops = 0; node.kind === "ref" && hops < 64; hops++) node = referent(node, defs);
  return node.kind === "object" && !node.fields.some((f) => f.name === "state") ? node : undefined;
}

/**
 * The node that shows a value of JSON type `type` where `node` reads it: references followed, and a union's
 * branch chosen as the walking decoder's partial chooses it for that type (constructs/stream/union.ts): by the
 * rule's type, or, under `same` or a type several branches take, the first branch whose wire takes it, for a
 * scalar or for a container only one branch takes; a union read by a discriminator or a tag itself, for an object.
 * The union itself for an object or array several branches of such a union take, when each is an object of
 * required or native members or an array (`sameBranchesOf`). Undefined where the walking decoder shows it
 * otherwise (other such containers, no branch for the type): the stream is handed over there.
 */
function readerOf(node: Node, type: JsonType, defs: Readonly<Record<string, Node>>): Node | undefined {
  for (let hops = 0; hops < 64; hops++) {
    if (node.kind === "ref") {
      node = referent(node, defs);
      continue;
    }
    if (node.kind !== "union") return node;
    const rule = node.rule;
    // Its wire object names the branch: read by a CHOOSING or BRANCH frame.
    if (rule.by === "discriminator" || rule.by === "tag") return type === "object" ? node : undefined;
    let branch: Node | undefined;
    const taking = branchesTaking(node, type, defs);
    if (rule.by === "same" || taking.length > 1) {
      // A container several branches take is shown through the branch its members fit (the walking decoder's):
      // read by a SAME frame where every such branch is an object of members written as they are shown.
      if ((type === "object" || type === "array") && taking.length > 1)
        return sameBranchesOf(node, type === "object", defs) !== undefined ? node : undefined;
      branch = taking[0];
    } else if (rule.by === "type") {
      const i = rule.types[type];
      branch = i === undefined ? undefined : node.branches[i];
    }
    if (branch === undefined) return undefined;
    node = branch;
  }
  return undefined;
}

/**
 * The branches of a union whose wire takes JSON type `type`, in order (read once per union and type). The walking
 * decoder shows a value through the first; a container through the first its members fit, and with one branch
 * that is it, whatever they are.
 */
const taking = new WeakMap<Node, Map<JsonType, readonly Node[]>>();
function branchesTaking(node: UnionNode, type: JsonType, defs: Readonly<Record<string, Node>>): readonly Node[] {
  let byType = taking.get(node);
  if (byType === undefined) {
    byType = new Map();
    taking.set(node, byType);
  }
  let found = byType.get(type);
  if (found === undefined) {
    found = node.branches.filter((b) => wireTypeSet(b, defs).has(type));
    byType.set(type, found);
  }
  return found;
}

/**
 * A union whose wire objects, or arrays, several branches take, read by a SAME frame (objects) or an ARRAY frame
 * that has it (arrays): every branch that takes the type is (through references) an object whose members are
 * required or native, or an array, at most 30 branches (a bit each). An array's elements are judged as one
 * member, named "".
 */
interface SameBranches {
  /** Each branch's member nodes by name (an array's items, by ""); undefined: the branch takes no such container. */
  readonly members: readonly (ReadonlyMap<string, Node> | undefined)[];
  /** The branches that take the container, a bit each. */
  readonly taking: number;
  /** How a member fits the branches, by name, then by its JSON type's slot (`memberFit`). */
  readonly memberFits: Map<string, (MemberFit | undefined)[]>;
}

/** How a member of a SAME container, of one JSON type or any (the name alone), fits the branches: a bit each. */
interface MemberFit {
  /** The branches that declare it and whose member's wire takes the type. */
  readonly fits: number;
  /** Of those, the ones whose member does not show a scalar of the type as itself (the walking decoder's to show). */
  readonly unread: number;
  /** Of those, the ones whose member has constants (const or enum). */
  readonly constants: number;
}

const TYPE_SLOTS: Readonly<Record<string, number>> = { string: 0, number: 1, boolean: 2, null: 3, object: 4, array: 5 };
const NAME_ONLY = 6;

function memberFit(
  same: SameBranches,
  name: string,
  type: JsonType | undefined,
  defs: Readonly<Record<string, Node>>,
): MemberFit {
  let slots = same.memberFits.get(name);
  if (slots === undefined) {
    slots = [];
    same.memberFits.set(name, slots);
  }
  const slot = type === undefined ? NAME_ONLY : TYPE_SLOTS[type]!;
  let found = slots[slot];
  if (found === undefined) {
    let fits = 0;
    let unread = 0;
    let constants = 0;
    for (let i = 0; i < same.members.length; i++) {
      const member = same.members[i]?.get(name);
      if (member === undefined) continue;
      if (type !== undefined && !wireTypeSet(member, defs).has(type)) continue;
      const bit = 1 << i;
      fits |= bit;
      if (type !== undefined && type !== "object" && type !== "array") {
        const reader = readerOf(member, type, defs);
        if (reader === undefined || (reader.kind !== "scalar" && reader.kind !== "any")) unread |= bit;
      }
      if (constantSet(member, defs) !== null) constants |= bit;
    }
    found = { fits, unread, constants };
    slots[slot] = found;
  }
  return found;
}

const sameObjects = new WeakMap<Node, SameBranches | null>();
const sameArrays = new WeakMap<Node, SameBranches | null>();
/** The union's object branches (`object`) or array branches, as a SAME container reads them; undefined: none such. */
function sameBranchesOf(
  node: UnionNode,
  object: boolean,
  defs: Readonly<Record<string, Node>>,
): SameBranches | undefined {
  const cache = object ? sameObjects : sameArrays;
  let found = cache.get(node);
  if (found === undefined) {
    found = null;
    if (node.branches.length <= 30) {
      const members: (ReadonlyMap<string, Node> | undefined)[] = [];
      let taking = 0;
      let fits = true;
      for (let i = 0; i < node.branches.length; i++) {
        let n = node.branches[i]!;
        if (!wireTypeSet(n, defs).has(object ? "object" : "array")) {
          members.push(undefined);
          continue;
        }
        for (let hops = 0; n.kind === "ref" && hops < 64; hops++) n = referent(n, defs);
        if (object && n.kind === "object" && !n.fields.some((f) => f.optional && f.presence !== "native"))
          members.push(memberNodesOf(n));
        else if (!object && n.kind === "array") members.push(new Map([["", n.items]]));
        else {
          fits = false;
          continue;
        }
        taking |= 1 << i;
      }
      if (fits) found = { members, taking, memberFits: new Map() };
    }
    cache.set(node, found);
  }
  return found ?? undefined;
}

const memberNodes = new WeakMap<Node, ReadonlyMap<string, Node>>();
function memberNodesOf(node: ObjectNode): ReadonlyMap<string, Node> {
  let found = memberNodes.get(node);
  if (found === undefined) {
    found = new Map(node.fields.map((f) => [f.name, f.node]));
    memberNodes.set(node, found);
  }
  return found;
}

const fieldMaps = new WeakMap<Node, ReadonlyMap<string, Field>>();
function fieldsOf(node: Node & { readonly fields: readonly Field[] }): ReadonlyMap<string, Field> {
  let found = fieldMaps.get(node);
  if (found === undefined) {
    found = new Map(node.fields.map((f) => [f.name, f]));
    fieldMaps.set(node, found);
  }
  return found;
}

export class LockstepDecoder<T> implements StreamDecoder<T> {
  /**
   * The text so far: the deltas themselves until they make CHUNK units, then joined into a flat chunk. A call's
   * text is one join at its end: no rope node per delta (kept alive and marked again at every collection) and no
   * record of lengths. The deltas are pushed again, as they came, when the stream is handed over.
   */
  private chunks: string[] = [];
  /** The deltas since the last chunk are the first `deltasAt`; the array is kept, so a long stream grows it once. */
  private readonly deltas: string[] = [];
  private deltasAt = 0;
  private deltasLength = 0;
  private length = 0;
  /**
   * The lengths of the deltas joined into chunks, in typed blocks, whose room is outside the collected heap: a long
   * growing array of numbers is copied as it grows and moved by the collector, which showed as a push costing more
   * the longer the stream (stream-scaling's long string).
   */
  private lengths: Uint32Array[] = [];
  private lengthsBlock: Uint32Array = EMPTY_BLOCK;
  private lengthsAt = 0;
  private pushes = 0;
  /** The walking decoder, once the stream is handed to it. */
  private walking: StreamDecoder<T> | undefined;
  private readonly wire: WireCandidates;
  private readonly defs: Readonly<Record<string, Node>>;
  private readonly maxUnits: number;
  private readonly maxNodes: number;
  private readonly maxDepth: number;

  private shown: unknown = undefined;
  private rootComplete = false;
  private changed = false;
  private steps: SameSteps | undefined;
  /** The members completed in this push: (place, key) pairs. */
  private readonly completedNow = new CompletedPairs<Place>();

  // The tokenizer.
  private mode = VALUE;
  private readonly frames: Frame[] = [];
  private depth = 0;
  private nodes = 0;
  /** Member names read, over all objects: the count decodeParsed holds the parsed value to. */
  private namesRead = 0;
  /** The string being read (a name or a value), decoded so far; a raw high surrogate held back. */
  private str = "";
  /** The length at which `str` is next made flat. */
  private flatAt = FLAT_GROWN;
  private inName = false;
  private high = "";
  /** Escape: 0 none, 1 after '\', 2..5 hex digits read (u). */
  private escape = 0;
  private hex = 0;
  /** The number being read: its sign, the value of all its digits (integer and fraction), its fraction's length. */
  private negative = false;
  private intValue = 0;
  private fractionDigits = 0;
  private numState = N_SIGN;
  private digits = 0;
  private literal = "";
  private literalAt = 0;
  /** The string value being read: where it is shown (undefined: not shown), its candidates' matcher (undefined: any string). */
  private strOut: Record<string, unknown> | unknown[] | undefined;
  /** The string being read grew since it was last shown. */
  private strGrew = false;
  private strKey: string | number = "";
  private strMatch: PrefixMatch | undefined;
  private nameMatch: PrefixMatch | undefined;
  private strSpare: PrefixMatch | undefined;
  private nameSpare: PrefixMatch | undefined;
  /** The candidates of the scalar being read (its place's), for its check once complete. */
  private reached: Candidates | undefined;

  constructor(
    private readonly codec: CodecCore<T>,
    private readonly options: DecodeOptions,
    /** The walking decoder, made new: what the stream is handed to. */
    private readonly walker: () => StreamDecoder<T>,
  ) {
    const limits = options.limits ? { ...codec.limits, ...options.limits } : codec.limits;
    this.wire = wireCandidatesOf(codec);
    this.defs = codec.bundle.plan.defs;
    const maxBytes = limits.maxBytes ?? DEFAULT_PARSE_LIMITS.maxBytes;
    // A UTF-16 unit is at most 3 UTF-8 bytes: well under the byte limit, the count of units alone keeps to it.
    this.maxUnits = Math.floor(maxBytes / 3) - 8;
    this.maxNodes = (limits.maxNodes ?? DEFAULT_PARSE_LIMITS.maxNodes) - 2;
    this.maxDepth = (limits.maxDepth ?? DEFAULT_PARSE_LIMITS.maxDepth) - 1;
    // Limits the walking decoder refuses whatever the text, or that are not plain counts (decode says which):
    // it answers from the start.
    const plain = [limits.maxBytes, limits.maxNodes, limits.maxDepth].every(
      (n) => n === undefined || (Number.isSafeInteger(n) && n > 0),
    );
    if (
      !plain ||
      (limits.maxDepth ?? 0) > MAX_DEPTH_LIMIT ||
      this.maxUnits < 16 ||
      this.maxNodes < 4 ||
      this.maxDepth < 2
    )
      this.walking = walker();
  }

  /** The text so far. */
  private text(): string {
    const recent = this.joined();
    return this.chunks.length === 0 ? recent : this.chunks.join("") + recent;
  }

  /** Whether the stream was handed to the walking decoder. */
  get handedOver(): boolean {
    return this.walking !== undefined;
  }

  get value(): unknown {
    return this.walking === undefined ? this.shown : this.walking.value;
  }

  push(delta: string): StreamStep {
    const walking = this.walking;
    if (walking !== undefined) return walking.push(delta);
    if (this.deltasAt < this.deltas.length) this.deltas[this.deltasAt] = delta;
    else this.deltas.push(delta);
    this.deltasAt++;
    this.length += delta.length;
    this.deltasLength += delta.length;
    if (this.deltasLength >= CHUNK) this.joinDeltas();
    this.pushes++;
    this.changed = false;
    try {
      if (this.length > this.maxUnits) throw HAND_OVER;
      this.read(delta);
      this.settlePush();
    } catch (e) {
      if (e !== HAND_OVER) throw e;
      return this.handOver();
    }
    return this.step();
  }

  end(): Result<T> {
    if (this.walking !== undefined) return this.walking.end();
    const text = this.text();
    if (this.mode !== DONE) return this.codec.decode(text, this.options);
    // Read whole in the plain subset, within the limits, no name repeated: native JSON.parse builds the same value
    // as decode's parser would, and the generated pass runs on it (anything but its plain success is decode's).
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch {
      return this.codec.decode(text, this.options);
    }
    return decodeParsed(this.codec, () => text, root, this.namesRead, this.options);
  }

  stateAt(pointer: string): MemberState {
    if (this.walking !== undefined) return this.walking.stateAt(pointer);
    return memberState(this.shown, this.rootComplete, pointer, (at, key) => this.isOpen(at, key));
  }

  /** Whether `container[key]` is being written: a frame shows into it there, or the string being read does. */
  private isOpen(container: object, key: string | number): boolean {
    if (this.mode === STRING && !this.inName && this.strOut === container && this.strKey === key) return true;
    for (let d = 0; d < this.depth; d++) {
      const f = this.frames[d]!;
      if (f.out === container && f.openKey === key) return true;
    }
    return false;
  }

  /** The pointers of (place, key) pairs. */
  pointersOf(pairs: readonly (Place | string | number | undefined)[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < pairs.length; i += 2) {
      const place = pairs[i] as Place | undefined;
      if (place === undefined && pairs[i + 1] === "") {
        out.push("");
        continue;
      }
      out.push(pointerJoin(pointerOfPlace(place), pairs[i + 1] as string | number));
    }
    return out;
  }

  private handOver(): StreamStep {
    const walking = this.walker();
    let step: StreamStep | undefined;
    const text = this.text();
    let at = 0;
    const blocks = this.lengths;
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b]!;
      const count = b === blocks.length - 1 ? this.lengthsAt : block.length;
      for (let k = 0; k < count; k++) {
        const n = block[k]!;
        step = walking.push(text.slice(at, at + n));
        at += n;
      }
    }
    for (let k = 0; k < this.deltasAt; k++) step = walking.push(this.deltas[k]!);
    this.walking = walking;
    this.chunks = [];
    this.deltas.length = 0;
    this.deltasAt = 0;
    this.lengths = [];
    // The partial value is the walking decoder's object now: said changed, whatever it showed.
    if (step!.ok && step!.value !== this.shown && !step!.changed)
      return Object.freeze({ ok: true, value: step!.value, changed: true, completed: step!.completed });
    return step!;
  }

  /** The deltas kept so far joined into one flat chunk, their lengths kept for a hand-over. */
  private joinDeltas(): void {
    for (let k = 0; k < this.deltasAt; k++) {
      if (this.lengthsAt === this.lengthsBlock.length) {
        this.lengthsBlock = new Uint32Array(LENGTHS_BLOCK);
        this.lengths.push(this.lengthsBlock);
        this.lengthsAt = 0;
      }
      this.lengthsBlock[this.lengthsAt++] = this.deltas[k]!.length;
    }
    this.chunks.push(this.joined());
    this.deltasAt = 0;
    this.deltasLength = 0;
  }

  /** The deltas since the last chunk as one flat string (the entries past them, an earlier chunk's, emptied first). */
  private joined(): string {
    const deltas = this.deltas;
    for (let k = this.deltasAt; k < deltas.length; k++) deltas[k] = "";
    return deltas.join("");
  }

  private step(): StreamStep {
    if (this.completedNow.count > 0) return new CompletedStep(this.shown, this.changed, this, this.completedNow.take());
    if (this.steps === undefined || this.steps.unchanged.value !== this.shown) this.steps = sameSteps(this.shown);
    return this.changed ? this.steps.changed : this.steps.unchanged;
  }

  /** What ends a push: the string being read shown as it stands, the whole value complete. */
  private settlePush(): void {
    if (this.mode === STRING && !this.inName && this.strOut !== undefined) this.showString();
    if (this.mode === DONE && !this.rootComplete && this.shown !== undefined) {
      this.rootComplete = true;
      this.completedPair(undefined, "");
    }
  }

  private completedPair(place: Place | undefined, key: string | number): void {
    this.completedNow.add(place, key);
  }

  // ---- The tokenizer: a plain subset of JSON; anything else hands over.

  private read(d: string): void {
    const n = d.length;
    let i = 0;
    while (i < n) {
      const mode = this.mode;
      if (mode === STRING) {
        i = this.stringRun(d, i);
        continue;
      }
      const c = d.charCodeAt(i);
      if (mode === NUMBER) {
        if (this.numberChar(c)) {
          i++;
          continue;
        }
        this.endNumber();
        continue; // the character is read again, after the number
      }
      if (mode === LITERAL) {
        if (c !== this.literal.charCodeAt(this.literalAt)) throw HAND_OVER;
        if (++this.literalAt === this.literal.length) this.endLiteral();
        i++;
        continue;
      }
      i++;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      switch (mode) {
        case VALUE:
          this.startValue(c);
          break;
        case VALUE_OR_CLOSE:
          if (c === 0x5d) this.close(false);
          else this.startValue(c);
          break;
        case NAME_OR_CLOSE:
          if (c === 0x7d) this.close(true);
          else if (c === 0x22) this.startName();
          else throw HAND_OVER;
          break;
        case NAME:
          if (c !== 0x22) throw HAND_OVER;
          this.startName();
          break;
        case COLON:
          if (c !== 0x3a) throw HAND_OVER;
          this.mode = VALUE;
          break;
        case AFTER: {
          const f = this.frames[this.depth - 1]!;
          const array = f.kind === ARRAY || f.kind === MAP;
          if (c === 0x2c) this.mode = array ? VALUE : NAME;
          else if (c === (array ? 0x5d : 0x7d)) this.close(!array);
          else throw HAND_OVER;
          break;
        }
        default:
          throw HAND_OVER; // DONE: only whitespace may follow
      }
    }
  }

  /** The frame the next value belongs to (undefined at the root). */
  private get top(): Frame | undefined {
    return this.depth === 0 ? undefined : this.frames[this.depth - 1];
  }

  private startName(): void {
    const f = this.top!;
    this.mode = STRING;
    this.inName = true;
    this.str = "";
    this.flatAt = FLAT_GROWN;
    // Matchers are made once per decoder and started again (one name and one string are read at a time).
    if (f.cand.namePossible(undefined)) this.nameMatch = undefined;
    else this.nameMatch = this.nameSpare = f.cand.nameMatch(this.nameSpare);
    // A name begun where no name is declared.
    if (this.nameMatch !== undefined && !this.nameMatch.grow("")) throw HAND_OVER;
  }

  /** A member name is complete. */
  private endName(name: string): void {
    const f = this.top!;
    const names = f.names;
    const at = f.namesAt;
    // A repeated name: the JSON is refused.
    if (at < LINEAR_NAMES) {
      for (let k = 0; k < at; k++) if (names[k] === name) throw HAND_OVER;
    } else {
      let seen = f.nameSet;
      if (seen === undefined) f.nameSet = seen = new Set(names.slice(0, at));
      if (seen.has(name)) throw HAND_OVER;
      seen.add(name);
    }
    // An undecided object's first member decides it: shown only once decided, so any other first hands over.
    if (f.kind === INLINE ? name !== "state" : f.kind === CHOOSING && name !== discriminatorOf(f)) throw HAND_OVER;
    if (at < names.length) names[at] = name;
    else if (at < LINEAR_NAMES) names.push(name);
    f.namesAt = at + 1;
    this.namesRead++;
    const member = f.cand.at(name);
    if (member.empty) throw HAND_OVER;
    f.member = member;
    if (f.kind === OBJECT) {
      const field = f.fields!.get(name);
      f.field = field;
      // The plan's own string: a key the partial object's shape already knows, not one to look up again.
      f.name = field === undefined ? name : field.name;
    } else f.name = name;
    this.mode = COLON;
  }

  /**
   * The value at the current place begins: the candidates of the place, the
   * node that reads it, and where it is shown.
   */
  private startValue(c: number): void {
    if (++this.nodes > this.maxNodes) throw HAND_OVER;
    const f = this.top;
    const reached =
      f === undefined ? this.wire.root : f.kind === ARRAY || f.kind === MAP ? this.elementOf(f) : f.member!;
    this.reached = reached;
    if (c === 0x7b || c === 0x5b) {
      const object = c === 0x7b;
      if (this.depth >= this.maxDepth) throw HAND_OVER;
      const cand = reached.allowing(object ? "object" : "array");
      if (cand.empty) throw HAND_OVER;
      this.open(f, object, cand);
      return;
    }
    // A scalar: at the root, in the envelope or where a container is due, the walking decoder's.
    const owner = f === undefined ? undefined : this.ownerAt(f, false);
    // Shown as itself by a scalar or any JSON; any other node shows nothing for it (the walking decoder's).
    if (owner !== undefined) {
      const type = c === 0x22 ? "string" : c === 0x74 || c === 0x66 ? "boolean" : c === 0x6e ? "null" : "number";
      // A SAME container's string is shown from its first character: its branches judged then (a number or literal
      // once complete, when it is shown).
      if (f!.same !== undefined) {
        if (type === "string") this.fitMember(f!, "string", undefined);
      } else {
        const node = readerOf(f!.kind === OBJECT ? f!.field!.node : f!.node!, type, this.defs);
        if (node === undefined || (node.kind !== "scalar" && node.kind !== "any")) throw HAND_OVER;
      }
    }
    if (c === 0x22) {
      const strings = reached.allowing("string");
      if (strings.empty) throw HAND_OVER;
      if (strings.anyString) this.strMatch = undefined;
      else this.strMatch = this.strSpare = strings.stringMatch(this.strSpare);
      if (this.strMatch !== undefined && !this.strMatch.grow("")) throw HAND_OVER;
      this.mode = STRING;
      this.inName = false;
      this.str = "";
      this.flatAt = FLAT_GROWN;
      this.strOut = undefined;
      this.strGrew = false;
      if (owner !== undefined) {
        const key = this.keyIn(f!);
        this.strOut = owner.out;
        this.strKey = key;
        this.put(owner.out!, key, "");
        owner.openKey = key;
      }
      return;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      if (reached.allowing("number").empty) throw HAND_OVER;
      this.mode = NUMBER;
      this.negative = false;
      this.intValue = 0;
      this.fractionDigits = 0;
      this.digits = 0;
      this.numState = N_SIGN;
      if (!this.numberChar(c)) throw HAND_OVER;
      return;
    }
    const literal = c === 0x74 ? "true" : c === 0x66 ? "false" : c === 0x6e ? "null" : undefined;
    if (literal === undefined) throw HAND_OVER;
    if (reached.allowing(literal === "null" ? "null" : "boolean").empty) throw HAND_OVER;
    this.mode = LITERAL;
    this.literal = literal;
    this.literalAt = 1;
  }

  /** The candidates of the element being written: one lookup per array once past a tuple's prefix. */
  private elementOf(f: Frame): Candidates {
    if (f.member !== undefined) return f.member;
    const cand = f.cand.at(f.count);
    if (f.count >= f.cand.elementsAlikeFrom) f.member = cand;
    return cand;
  }

  /**
   * The frame whose container shows the value at `f`'s current place, or
   * undefined where nothing shows it (a tag's state, an entry's key). Orders
   * and shapes the walking decoder shows otherwise hand over: a tag's value
   * before its state says present, an entry's value before its key is
   * complete (shown later, whole, there), a scalar where a container is due.
   */
  private ownerAt(f: Frame, container: boolean): Frame | undefined {
    switch (f.kind) {
      case OBJECT: {
        const field = f.field;
        if (field === undefined) throw HAND_OVER; // undeclared: the wire check's to refuse
        // A tag that is no object.
        if (field.optional && (field.presence === "tagged" || field.presence === "inline")) throw HAND_OVER;
        return f;
      }
      case ARRAY:
        return f;
      case SAME:
        return f;
      case TAG:
        if (f.name === "state" && !container) return undefined;
        if (f.name !== "value" || f.word !== "present") throw HAND_OVER;
        return f.holder;
      case ENTRY:
        if (f.name === "key" && !container) return undefined;
        if (f.name !== "value" || f.word === undefined) throw HAND_OVER;
        return f.holder;
      case BRANCH:
        if (f.name === "branch" && !container) return undefined;
        if (f.name !== "value" || f.word === undefined) throw HAND_OVER;
        // A scalar as the whole value: the walking decoder's.
        if (f.holder === undefined && !container) throw HAND_OVER;
        return f.holder;
      case INLINE:
      case CHOOSING:
        // The deciding member is not shown; nothing else is read before it (endName).
        if (container) throw HAND_OVER;
        return undefined;
      default:
        throw HAND_OVER; // a map's entry, any object's entries or the envelope's arguments given a scalar
    }
  }

  /** The key in its owner's container of the value at `f`'s current place (ownerAt gave an owner). */
  private keyIn(f: Frame): string | number {
    switch (f.kind) {
      case ARRAY:
        return f.count;
      case TAG:
      case BRANCH:
        return f.at;
      case ENTRY:
        return f.word!;
      default:
        return f.name;
    }
  }

  /** A container opens at the current place. */
  private open(f: Frame | undefined, object: boolean, cand: Candidates): void {
    let node: Node;
    // A container several branches of a `same` union take: their members (or elements), judged as they come.
    let same: SameBranches | undefined;
    if (f === undefined) {
      if (this.codec.bundle.plan.envelope !== "bare") {
        if (!object) throw HAND_OVER;
        this.newFrame(ENVELOPE, undefined, cand, undefined, "", undefined, undefined);
        return;
      }
      node = this.codec.bundle.plan.root;
    } else {
      switch (f.kind) {
        case OBJECT: {
          const field = f.field;
          if (field === undefined) throw HAND_OVER;
          if (field.optional && field.presence === "tagged") {
            if (!object) throw HAND_OVER;
            this.newFrame(TAG, field.node, cand, f, f.name, undefined, undefined);
            return;
          }
          if (field.optional && field.presence === "inline") {
            if (!object) throw HAND_OVER;
            this.newFrame(INLINE, inlineObject(field.node, this.defs), cand, f, f.name, undefined, undefined);
            return;
          }
          node = field.node;
          break;
        }
        case MAP:
          if (!object) throw HAND_OVER;
          this.newFrame(ENTRY, f.node, cand, f, "", undefined, undefined);
          return;
        case ANY_OBJECT:
          if (f.name !== "entries" || object) throw HAND_OVER;
          // The entries show into the any object's own container.
          this.newFrame(MAP, f.node, cand, undefined, "", f.out, f.rec);
          return;
        case MIXED:
          // Its declared members and its entries show into its own container.
          if (f.name === "fields" && object) this.newFrame(OBJECT, f.node, cand, undefined, "", f.out, f.rec);
          else if (f.name === "entries" && !object) {
            this.newFrame(MAP, (f.node as MixedNode).value, cand, undefined, "", f.out, f.rec);
            // Kept on the entries' frame: an entry named as a declared member is refused by decode.
            this.frames[this.depth - 1]!.fields = fieldsOf(f.node as MixedNode);
          } else throw HAND_OVER;
          return;
        case ENVELOPE:
          if (f.name !== "arguments") throw HAND_OVER;
          node = this.codec.bundle.plan.root;
          break;
        case SAME:
          node = this.sameContainer(f, object);
          break;

        default:
          // An array's element, a tag's, an entry's or a branch's value (ownerAt below holds it to its order).
          if (f.kind !== ARRAY && f.name !== "value") throw HAND_OVER;
          node = f.same !== undefined ? this.sameContainer(f, object) : f.node!;
      }
    }
    const reader = readerOf(node, object ? "object" : "array", this.defs);
    if (reader === undefined) throw HAND_OVER;
    node = reader;
    let kind: number;
    let out: Record<string, unknown> | unknown[];
    let inner: Node = node;
    switch (node.kind) {
      case "object":
        if (!object) throw HAND_OVER;
        kind = OBJECT;
        out = {};
        break;
      case "array":
        if (object) throw HAND_OVER;
        kind = ARRAY;
        out = newArray();
        inner = node.items;
        break;
      case "map":
        if (object) throw HAND_OVER;
        kind = MAP;
        out = {};
        inner = node.value;
        break;
      case "any":
        kind = object ? ANY_OBJECT : ARRAY;
        out = object ? {} : newArray();
        break;
      case "mixed":
        if (!object) throw HAND_OVER;
        kind = MIXED;
        out = {};
        break;
      case "union": {
        if (node.rule.by === "same" || node.rule.by === "type") {
          // Several object or array branches (readerOf): shown at once, as written, through the first they fit.
          same = sameBranchesOf(node, object, this.defs)!;
          kind = object ? SAME : ARRAY;
          out = object ? {} : newArray();
          if (!object) inner = same.members[firstBit(same.taking)]!.get("")!;
          break;
        }
        // Read by a discriminator or a tag (readerOf): nothing shown until its first member decides.
        const owner = f === undefined || f.kind === ENVELOPE ? undefined : this.ownerAt(f, true);
        const key = owner === undefined ? "" : this.keyIn(f!);
        this.newFrame(node.rule.by === "tag" ? BRANCH : CHOOSING, node, cand, owner, key, undefined, undefined);
        return;
      }
      default:
        throw HAND_OVER; // a scalar node given a container
    }
    const owner = f === undefined || f.kind === ENVELOPE ? undefined : this.ownerAt(f, true);
    if (owner === undefined) {
      // The whole value (the root, or the envelope's arguments).
      this.newFrame(kind, inner, cand, undefined, "", out, ROOT, same);
      this.shown = out;
      this.changed = true;
      return;
    }
    const key = this.keyIn(f!);
    // A SAME container is put at its place again when its branch changes: its holder kept.
    const placed = same !== undefined;
    this.newFrame(kind, inner, cand, placed ? owner : undefined, placed ? key : "", out, { up: owner.rec, key }, same);
    this.put(owner.out!, key, out);
    owner.openKey = key;
  }

  private newFrame(
    kind: number,
    node: Node | undefined,
    cand: Candidates,
    holder: Frame | undefined,
    at: string | number,
    out: Record<string, unknown> | unknown[] | undefined,
    rec: Place | undefined,
    same?: SameBranches,
  ): void {
    // Not a container of its own where it shows into its parent's (any JSON's or a mixed object's members).
    const shows = out !== undefined && rec !== undefined && out !== this.top?.out;
    // Frames are kept by depth and written over (a container's record is its Place, not its frame).
    let f = this.frames[this.depth];
    if (f === undefined) {
      f = {
        kind,
        node,
        fields: undefined,
        out,
        rec,
        cand,
        name: "",
        field: undefined,
        member: undefined,
        count: 0,
        names: [],
        namesAt: 0,
        nameSet: undefined,
        openKey: undefined,
        word: undefined,
        keys: undefined,
        shows,
        openedIn: 0,
        mark: 0,
        holder,
        at,
        same: undefined,
        alive: 0,
        chosen: 0,
        closedIn: -1,
      };
      this.frames[this.depth] = f;
    }
    f.kind = kind;
    f.node = node;
    f.fields = kind === OBJECT ? fieldsOf(node as ObjectNode | MixedNode) : undefined;
    f.out = out;
    f.rec = rec;
    f.cand = cand;
    f.name = "";
    f.field = undefined;
    f.member = undefined;
    f.count = 0;
    f.namesAt = 0;
    f.nameSet = undefined;
    f.openKey = undefined;
    f.word = undefined;
    f.keys = undefined;
    f.shows = shows;
    f.openedIn = this.pushes;
    f.mark = this.completedNow.count;
    f.holder = holder;
    f.at = at;
    f.same = same;
    if (same !== undefined) {
      f.alive = same.taking;
      f.chosen = firstBit(same.taking);
      f.closedIn = -1;
    }
    this.depth++;
    this.mode = kind === ARRAY || kind === MAP ? VALUE_OR_CLOSE : NAME_OR_CLOSE;
  }

  /** The container on top closes ('}' if `object`). */
  private close(object: boolean): void {
    const f = this.frames[this.depth - 1]!;
    if ((f.kind === ARRAY || f.kind === MAP) === object) throw HAND_OVER;
    this.depth--;
    const parent = this.top;
    // A container shown at a place in its parent's owner is complete there (not the whole value, whose members are
    // always reported; a tag, an entry or any object's entries show nothing of their own). Written whole within
    // this push, it is reported alone, its members not.
    if (f.shows && f.rec !== ROOT) {
      if (f.openedIn === this.pushes) this.completedNow.count = f.mark;
      this.completedIn(parent!);
    }
    if (parent?.same !== undefined) parent.closedIn = this.pushes;
    if (f.kind === ENTRY && f.word !== undefined) {
      const map = f.holder!;
      map.keys ??= new Set();
      map.keys.add(f.word);
    }
    this.valueEnded(parent);
  }

  /** The value at `f`'s current place, shown, is complete: reported, and no longer open. */
  private completedIn(f: Frame): void {
    // A branch's value is its union's: complete at the union's place once the value is.
    const owner = f.kind === TAG || f.kind === ENTRY || f.kind === BRANCH ? f.holder! : f;
    const key = this.keyIn(f);
    owner.openKey = undefined;
    this.completedPair(owner.rec, key);
  }

  /** After a value at the parent's place: the parent's count and state move on. */
  private valueEnded(parent: Frame | undefined): void {
    if (parent === undefined) {
      this.mode = DONE;
      return;
    }
    if (parent.kind === ARRAY || parent.kind === MAP) parent.count++;
    this.mode = AFTER;
  }

  /** A scalar value is complete at the current place: checked, shown, reported. */
  private endScalar(value: unknown): void {
    const f = this.top!;
    if (!this.reached!.scalarPossible(value)) throw HAND_OVER;
    if (f.kind === INLINE || f.kind === CHOOSING || (f.kind === BRANCH && f.name === "branch")) {
      this.decide(f, value);
      this.valueEnded(f);
      return;
    }
    if (typeof value === "string") {
      if (f.kind === TAG && f.name === "state") f.word = value;
      else if (f.kind === ENTRY && f.name === "key") {
        // A repeated key, or a mixed object's entry named as a declared member: decode refuses it.
        const map = f.holder!;
        if (map.keys?.has(value) || map.fields?.has(value)) throw HAND_OVER;
        f.word = value;
      }
      const out = this.strOut as Record<string | number, unknown> | undefined;
      if (out !== undefined) {
        // Shown since it began (an own data member): only its last growth, if any, is new.
        if (this.strGrew) {
          this.strGrew = false;
          out[this.strKey] = value;
          this.changed = true;
        }
        this.strOut = undefined;
        if (f.same !== undefined) this.fitMember(f, undefined, value);
        this.completedIn(f);
      }
    } else {
      if (f.same !== undefined) this.fitMember(f, value === null ? "null" : (typeof value as JsonType), value);
      const owner = this.ownerAt(f, false);
      if (owner !== undefined) {
        this.put(owner.out!, this.keyIn(f), value);
        this.completedIn(f);
      }
    }
    this.valueEnded(f);
  }

  /**
   * A SAME container's member `f.name` (an array's element: "") is shown (`type`: its JSON type, judged once) or
   * complete (`value`, a string's type judged when it began): the branches it does not fit are ruled out, as the
   * walking decoder rules them out (constructs/stream/union.ts, partialSameObject and partialSameArray): one that
   * does not declare it, whose member's wire does not take its type, or whose member's constants do not have its
   * complete value. With none left the walking decoder shows another container (the first such branch's); a
   * member a branch would show otherwise than as written is its too. A new first branch shows a new container.
   */
  private fitMember(f: Frame, type: JsonType | undefined, value: unknown): void {
    const same = f.same!;
    const fit = memberFit(same, f.name, type, this.defs);
    if ((f.alive & fit.unread) !== 0) throw HAND_OVER;
    let alive = f.alive & fit.fits;
    let constrained = alive & fit.constants;
    if (value !== undefined && constrained !== 0) {
      while (constrained !== 0) {
        const i = firstBit(constrained);
        constrained &= constrained - 1;
        if (!constantSet(same.members[i]!.get(f.name)!, this.defs)!.has(value)) alive &= ~(1 << i);
      }
    }
    this.choose(f, alive);
  }

  /**
   * A SAME container's member `f.name` (an array's element: "") is a container (`object` or an array): the
   * branches that do not declare it, or whose member's wire does not take it, are ruled out; its node, the first
   * branch left's member's. Read in step only when every branch left declares it with one node and no constant:
   * it is then judged alike in all of them, and the walking decoder rules none out when it completes (a node of a
   * `same` union decodes as itself, and a member it does not declare hands over), so the branch shown changes by
   * scalar members alone.
   */
  private sameContainer(f: Frame, object: boolean): Node {
    const same = f.same!;
    const fit = memberFit(same, f.name, object ? "object" : "array", this.defs);
    const alive = f.alive & fit.fits;
    if (alive === 0 || (alive & fit.constants) !== 0) throw HAND_OVER;
    const node = same.members[firstBit(alive)]!.get(f.name)!;
    for (let rest = alive & (alive - 1); rest !== 0; rest &= rest - 1)
      if (!alike(node, same.members[firstBit(rest)]!.get(f.name)!)) throw HAND_OVER;
    this.choose(f, alive);
    return node;
  }

  /** The branches a SAME container's members fit, now `alive`: a new first branch shows a new container. */
  private choose(f: Frame, alive: number): void {
    if (alive === 0) throw HAND_OVER;
    f.alive = alive;
    const chosen = firstBit(alive);
    if (chosen === f.chosen) return;
    // Its members as it lists them then: the walking decoder's (rare).
    if (f.closedIn === this.pushes) throw HAND_OVER;
    f.chosen = chosen;
    // Its members copied into a new container, put at its place (the walking decoder's memo is per branch).
    const old = f.out!;
    let out: Record<string, unknown> | unknown[];
    if (Array.isArray(old)) {
      out = old.slice();
      f.node = f.same!.members[chosen]!.get("");
    } else {
      out = {};
      for (const k of Object.keys(old)) setOwn(out, k, old[k]);
    }
    f.out = out;
    if (this.strOut === old) this.strOut = out;
    const holder = f.holder;
    if (holder === undefined) this.shown = out;
    else if (Array.isArray(holder.out)) holder.out[f.at as number] = out;
    else setOwn(holder.out!, f.at as string, out);
    this.changed = true;
  }

  /** The first member of an undecided object, or a branch's number, is complete: what it decides. */
  private decide(f: Frame, value: unknown): void {
    if (f.kind === BRANCH) {
      const branches = (f.node as UnionNode).branches;
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value >= branches.length)
        throw HAND_OVER;
      f.node = branches[value];
      f.word = "chosen";
      return;
    }
    if (f.kind === INLINE) {
      // Absent (or no tag): nothing is shown, and nothing may follow (ownerAt).
      if (value === "present") {
        if (f.node === undefined) throw HAND_OVER;
        this.decided(f, f.node as ObjectNode);
      } else f.word = String(value);
      return;
    }
    const union = f.node as UnionNode;
    const rule = union.rule;
    const i = rule.by === "discriminator" ? rule.values[canonicalJson(value)] : undefined;
    const branch = i === undefined ? undefined : readerOf(union.branches[i]!, "object", this.defs);
    if (branch === undefined || branch.kind !== "object") throw HAND_OVER;
    this.decided(f, branch);
    // The discriminator, shown as its branch declares it (a member every branch requires).
    const field = f.fields!.get(f.name);
    if (field === undefined || (field.optional && field.presence !== "native")) throw HAND_OVER;
    const reader = readerOf(field.node, value === null ? "null" : (typeof value as JsonType), this.defs);
    if (reader === undefined || (reader.kind !== "scalar" && reader.kind !== "any")) throw HAND_OVER;
    f.field = field;
    this.put(f.out!, f.name, value);
    this.completedIn(f);
  }

  /** An undecided object shows `node`'s members from now on, at its place: an OBJECT frame opened in this push. */
  private decided(f: Frame, node: ObjectNode): void {
    const out: Record<string, unknown> = {};
    const holder = f.holder;
    f.kind = OBJECT;
    f.node = node;
    f.fields = fieldsOf(node);
    f.out = out;
    f.shows = true;
    f.openedIn = this.pushes;
    f.mark = this.completedNow.count;
    if (holder === undefined) {
      f.rec = ROOT;
      this.shown = out;
      this.changed = true;
      return;
    }
    f.rec = { up: holder.rec, key: f.at };
    this.put(holder.out!, f.at, out);
    holder.openKey = f.at;
  }

  /**
   * Puts a member the partial value does not have yet (a name is given once, an element at the array's end, a
   * repeated map key hands over), as an own data member even for "__proto__".
   */
  private put(out: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
    if (Array.isArray(out)) out.push(value);
    else setOwn(out, key as string, value);
    this.changed = true;
  }

  /** The string being read, shown at its place (an own data member since its first put) if it grew. */
  private showString(): void {
    if (!this.strGrew) return;
    this.strGrew = false;
    (this.strOut as Record<string | number, unknown>)[this.strKey] = this.str;
    this.changed = true;
  }

  /** Reads string characters from i; returns where it stopped. */
  private stringRun(d: string, i: number): number {
    const n = d.length;
    // Most runs are plain to the delta's end or to the closing quote.
    if (this.escape === 0 && this.high === "") {
      let j = i;
      let c = 0;
      for (; j < n; j++) {
        c = d.charCodeAt(j);
        if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) break;
      }
      if (j === n || c === 0x22) {
        if (j > i) {
          const run = i === 0 && j === n ? d : d.slice(i, j);
          this.str = this.str === "" ? run : this.str + run;
          if (this.str.length >= this.flatAt) this.flatten();
          this.grew(run);
        }
        if (j === n) return n;
        this.endString();
        return j + 1;
      }
    }
    let added = "";
    // Escapes and surrogates, a character at a time; plain runs sliced.
    while (i < n) {
      if (this.escape !== 0) {
        const c = d.charCodeAt(i++);
        if (this.escape === 1) {
          const simple = simpleEscape(c);
          if (simple !== undefined) {
            added += simple;
            this.escape = 0;
          } else if (c === 0x75) {
            this.escape = 2;
            this.hex = 0;
          } else throw HAND_OVER;
        } else {
          const h = hexDigit(c);
          if (h < 0) throw HAND_OVER;
          this.hex = this.hex * 16 + h;
          if (++this.escape === 6) {
            if (this.hex >= 0xd800 && this.hex <= 0xdfff) throw HAND_OVER;
            added += String.fromCharCode(this.hex);
            this.escape = 0;
          }
        }
        continue;
      }
      let j = i;
      let c = 0;
      for (; j < n; j++) {
        c = d.charCodeAt(j);
        if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) break;
      }
      if (j > i) {
        if (this.high !== "") throw HAND_OVER; // a lone high surrogate
        added += d.slice(i, j);
      }
      i = j;
      if (i === n) break;
      if (c === 0x22) {
        if (this.high !== "") throw HAND_OVER;
        this.str += added;
        if (this.str.length >= this.flatAt) this.flatten();
        this.grew(added);
        this.endString();
        return i + 1;
      }
      if (c === 0x5c) {
        if (this.high !== "") throw HAND_OVER;
        this.escape = 1;
        i++;
        continue;
      }
      if (c < 0x20) throw HAND_OVER;
      // A raw surrogate: a high one is held back until its low one.
      if (c <= 0xdbff) {
        if (this.high !== "") throw HAND_OVER;
        this.high = d[i]!;
      } else {
        if (this.high === "") throw HAND_OVER;
        added += this.high + d[i]!;
        this.high = "";
      }
      i++;
    }
    this.str += added;
    if (this.str.length >= this.flatAt) this.flatten();
    this.grew(added);
    return i;
  }

  /**
   * A string read delta by delta is a rope (a node per delta, all alive while it is read) that the collector marks
   * again as it grows: made flat each time its length doubles, so each character is copied about twice.
   */
  private flatten(): void {
    flatSink = (this.str as unknown as number) | 0;
    this.flatAt = this.str.length * 2;
  }

  /** The string being read gained `added`: checked against the const and enum strings its place allows. */
  private grew(added: string): void {
    if (added === "") return;
    this.strGrew = true;
    const match = this.inName ? this.nameMatch : this.strMatch;
    if (match !== undefined && !match.grow(added)) throw HAND_OVER;
  }

  private endString(): void {
    const s = this.str;
    this.str = "";
    if (this.inName) {
      this.inName = false;
      this.endName(s);
      return;
    }
    this.mode = AFTER;
    this.endScalar(s);
  }

  /** Whether `c` continues the number being read (a character that cannot follow ends it; a bad one hands over). */
  private numberChar(c: number): boolean {
    const digit = c >= 0x30 && c <= 0x39;
    switch (this.numState) {
      case N_SIGN:
        if (c === 0x2d && !this.negative) {
          this.negative = true;
          return true;
        }
        if (!digit) throw HAND_OVER;
        if (c === 0x30) {
          if (this.negative) throw HAND_OVER; // -0: the walking decoder's
          this.numState = N_ZERO;
        } else this.numState = N_INT;
        this.intValue = c - 0x30;
        this.digits++;
        return true;
      case N_ZERO:
        if (c === 0x2e) this.numState = N_DOT;
        else if (digit || c === 0x65 || c === 0x45) throw HAND_OVER;
        else return false;
        return true;
      case N_INT:
        if (digit) {
          if (++this.digits > 15) throw HAND_OVER;
          // At most 15 digits: exact in a double.
          this.intValue = this.intValue * 10 + (c - 0x30);
        } else if (c === 0x2e) this.numState = N_DOT;
        else if (c === 0x65 || c === 0x45) throw HAND_OVER;
        else return false;
        return true;
      case N_DOT:
        if (!digit) throw HAND_OVER;
        this.numState = N_FRAC;
        if (++this.digits > 15) throw HAND_OVER;
        this.intValue = this.intValue * 10 + (c - 0x30);
        this.fractionDigits = 1;
        return true;
      default:
        if (digit) {
          if (++this.digits > 15) throw HAND_OVER;
          this.intValue = this.intValue * 10 + (c - 0x30);
          this.fractionDigits++;
        } else if (c === 0x65 || c === 0x45) throw HAND_OVER;
        else return false;
        return true;
    }
  }

  private endNumber(): void {
    const s = this.numState;
    if (s === N_SIGN || s === N_DOT) throw HAND_OVER;
    this.mode = AFTER;
    // At most 15 digits: the digits' value is exact, and so is 10^k (k <= 15), so one division is the correctly
    // rounded value of the decimal, which JSON.parse gives (IEEE 754 division rounds correctly).
    const value =
      s === N_FRAC
        ? (this.negative ? -this.intValue : this.intValue) / POWERS_OF_TEN[this.fractionDigits]!
        : this.negative
          ? -this.intValue
          : this.intValue;
    this.endScalar(value);
  }

  private endLiteral(): void {
    const l = this.literal;
    this.mode = AFTER;
    this.endScalar(l === "true" ? true : l === "false" ? false : null);
  }
}

/**
 * An empty array with room for four elements. V8 gives the first element pushed into `[]` room for seventeen
 * (about 150 bytes): every small array shown stays alive until the value is complete, and the collector copies
 * each one, which cost any JSON's many small arrays about a fifth of their pushes. Popped, not `length = 0`
 * (which gives the room back); still a packed array.
 */
function newArray(): unknown[] {
  const a: unknown[] = [undefined, undefined, undefined, undefined];
  a.pop();
  a.pop();
  a.pop();
  a.pop();
  return a;
}

/** 10^k for k up to 15, each exact in a double. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** The lowest bit set in `bits` (not 0). */
function firstBit(bits: number): number {
  return 31 - Math.clz32(bits & -bits);
}

/** The JSON types a node's wire takes, as a set (read once per node). */
const typeSets = new WeakMap<Node, ReadonlySet<JsonType>>();
function wireTypeSet(node: Node, defs: Readonly<Record<string, Node>>): ReadonlySet<JsonType> {
  let found = typeSets.get(node);
  if (found === undefined) {
    found = new Set(wireTypesOf(node, defs, new Set()));
    typeSets.set(node, found);
  }
  return found;
}

/**
 * A node's constants (constantsOf: its const or enum values), as a set of the scalars among them, read once per
 * node; null: none. A complete scalar is one of them if the set has it: JSON equality is SameValueZero there (a
 * container constant no scalar equals).
 */
const constantSets = new WeakMap<Node, ReadonlySet<unknown> | null>();
function constantSet(node: Node, defs: Readonly<Record<string, Node>>): ReadonlySet<unknown> | null {
  let found = constantSets.get(node);
  if (found === undefined) {
    const constants = constantsOf(node, defs);
    found =
      constants === undefined
        ? null
        : new Set(constants.map((c) => JSON.parse(c) as unknown).filter((c) => typeof c !== "object" || c === null));
    constantSets.set(node, found);
  }
  return found;
}

/** Whether two nodes are one, or written alike (their canonical JSON, read once per node). */
const canonicalNodes = new WeakMap<Node, string>();
function alike(a: Node, b: Node): boolean {
  if (a === b) return true;
  const canonical = (n: Node): string => {
    let found = canonicalNodes.get(n);
    if (found === undefined) {
      found = canonicalJson(n);
      canonicalNodes.set(n, found);
    }
    return found;
  };
  return canonical(a) === canonical(b);
}

/** The member that names a CHOOSING frame's branch. */
function discriminatorOf(f: Frame): string {
  const rule = (f.node as UnionNode).rule;
  return rule.by === "discriminator" ? rule.field : "";
}

function pointerOfPlace(place: Place | undefined): string {
  const keys: (string | number)[] = [];
  for (let at = place; at !== undefined && at !== ROOT; at = at.up) keys.push(at.key);
  let pointer = "";
  for (let i = keys.length - 1; i >= 0; i--) pointer = pointerJoin(pointer, keys[i]!);
  return pointer;
}
