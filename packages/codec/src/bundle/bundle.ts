/**
 * The bundle: what compile writes at build time and a dispatcher loads at run
 * time. Plain JSON, versioned, with a digest over everything else in it.
 * The digest detects damage and accidental edits; it is not a signature.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { InputDialect } from "../dialects.js";
import type { Plan } from "../ir/nodes.js";
import { canonicalJson, type JsonObject, type JsonValue } from "../json.js";
import type { ParseLimits } from "../parse/parser.js";
import type { TargetName } from "../targets/profile.js";

/**
 * @5: a tuple (`prefixItems`) is its own node, each position to its own
 * schema (constructs/tuple.ts): on a target without prefixItems it travels as
 * a closed object of one member per position, where @4 sent an array of a
 * union of the positions.
 * @4: an optional member whose value is a closed object or values that are no
 * object (a nullable object) may carry its tag inline, those values beside the
 * two tagged forms (presence "inline" on that union; the depth budget chooses it).
 * @3: an object root is the wire value itself (`plan.envelope`), optional
 * object members carry their tag inline (presence "inline"), tags may be
 * spelled minimally (`options.tags`, a field's `tags`).
 * @2: union branch sources are lists of pointers, and unions carry no `source`.
 */
export const BUNDLE_FORMAT = "strictwire/bundle@5";

/**
 * Formats still read, and what each always meant in the current one: @4 is
 * @5 without tuple nodes (read as it is: its arrays of a union stay as they
 * were compiled); @3 is @4 without inline nullable objects (read as it is);
 * @2 is @3 with every root wrapped, no inline tags, the state spelling.
 */
export const PREVIOUS_FORMATS = ["strictwire/bundle@4", "strictwire/bundle@3", "strictwire/bundle@2"] as const;

/** Reading a bundle is reading untrusted input: these bound it. */
export const BUNDLE_READ_LIMITS: ParseLimits = Object.freeze({
  maxBytes: 32 * 1024 * 1024,
  maxNodes: 4_000_000,
  maxDepth: 1024,
});

/**
 * How absence is spelled on the wire where the target has no native optional
 * members: in a tag (`"tagged"`) or as null (`"compact"`). It is chosen by the
 * `presence` compile option (that public name is kept); each member's own
 * `Presence` is decided from it, member by member.
 */
export const ABSENCE_SPELLINGS = ["tagged", "compact"] as const;
export type AbsenceSpelling = (typeof ABSENCE_SPELLINGS)[number];

/** The `tags` compile option: how presence tags are spelled, `{"state":…}` or minimal (`{}`, `{"value":…}`). */
export const TAG_SPELLING_OPTIONS = ["state", "minimal"] as const;
export type TagSpelling = (typeof TAG_SPELLING_OPTIONS)[number];

export interface BundleOptions {
  readonly target: TargetName;
  readonly presence: AbsenceSpelling;
  /** How presence tags are spelled: `{"state":"absent"}`… (default) or minimal (`{}`, `{"value":…}`). */
  readonly tags: TagSpelling;
  readonly openObjects: "close" | "preserve";
  readonly factored: boolean;
  readonly dialect?: InputDialect;
}

/**
 * A tool compiled with `strict: "auto"` over the target's limits: it is sent
 * with strict mode off (the provider does not hold the model to the wire),
 * and decode still holds every call to the original schema.
 */
export interface NonStrict {
  /** The limit or rule the wire is over (maxProperties, firstKey, ...). */
  readonly limit: string;
  /** Where in the wire schema (JSON Pointer). */
  readonly path: string;
  /** The refusal strict compile would have given. */
  readonly reason: string;
}

export interface Bundle {
  readonly format: typeof BUNDLE_FORMAT;
  readonly name: string;
  readonly description?: string;
  readonly options: BundleOptions;
  /** The source schema as given (before any input dialect's adapter). */
  readonly source: JsonValue;
  /** The strict schema the model is given. */
  readonly wire: JsonObject;
  readonly plan: Plan;
  /** The decoder's parse limits for this tool's arguments. */
  readonly limits: ParseLimits;
  /** Present when the tool is sent with strict mode off (compiled with `strict: "auto"` over a limit). */
  readonly nonStrict?: NonStrict;
  /** "sha256-" + hex of the canonical JSON of every other member. */
  readonly digest: string;
}

export type UnsignedBundle = Omit<Bundle, "digest">;

/**
 * SHA-256 over the canonical JSON's UTF-8 bytes. A portable synchronous hash,
 * not node:crypto (absent on the web, Workers and the Edge) nor Web Crypto
 * (asynchronous); the bytes are the same, so every digest written before stays.
 */
export function digestOf(bundle: UnsignedBundle | Bundle): string {
  const { digest: _ignored, ...rest } = bundle as Bundle;
  return `sha256-${bytesToHex(sha256(new TextEncoder().encode(canonicalJson(rest))))}`;
}
