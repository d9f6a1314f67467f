/**
 * Mutations of valid wire texts. Text and byte mutations damage the spelling
 * (flips, truncations, splices, repeats); structural mutations damage the
 * content (duplicated or extra members, swapped presence tags, repeated
 * entries, nasty numbers) and write it back with any escape spelling.
 *
 * Every choice comes from `dice`, a list of integers drawn by fast-check, so
 * a seed reproduces a run exactly.
 */

export class Dice {
  private i = 0;
  constructor(private readonly rolls: readonly number[]) {}
  /** An integer in [0, n). */
  next(n: number): number {
    if (n <= 1 || this.rolls.length === 0) return 0;
    const r = this.rolls[this.i++ % this.rolls.length]!;
    return (r + this.i * 7919) % n;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.next(items.length)]!;
  }
  chance(percent: number): boolean {
    return this.next(100) < percent;
  }
}

/** Characters that matter to a JSON reader, and a few that should not be there. */
const ALPHABET = [
  "{",
  "}",
  "[",
  "]",
  '"',
  ",",
  ":",
  "\\",
  " ",
  "\n",
  "\t",
  "0",
  "1",
  "9",
  "-",
  "+",
  ".",
  "e",
  "E",
  "a",
  "n",
  "t",
  "f",
  "u",
  "/",
  "*",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u00a0",
  "\u2028",
  "\ufeff",
  "\ud800",
  "\udc00",
  "é",
  "😀",
];

/** Fragments worth splicing into a wire text. */
export const FRAGMENTS = [
  ",",
  "}",
  "]",
  "{",
  "[",
  '"',
  ":",
  "null",
  "true",
  "-0",
  "1e400",
  "-1e400",
  "9007199254740993",
  "123456789012345678901234567890",
  "01",
  "1.",
  ".5",
  "NaN",
  "Infinity",
  "0x10",
  "//",
  "/* c */",
  "\ufeff",
  "\\u0000",
  '"\\ud800"',
  '"\\udc00\\ud800"',
  '"__proto__"',
  '"constructor"',
  '"prototype"',
  '{"state":"absent"}',
  '{"state":"present","value":null}',
  '{"state":"absent","value":1}',
  '{"branch":0,"value":null}',
  '{"branch":99,"value":null}',
  '{"entries":[]}',
  '{"key":"__proto__","value":null}',
  '{"fields":{},"entries":[]}',
  '"__proto__":{}',
  '"state":"absent",',
  "[".repeat(70),
  "]".repeat(70),
  '{"a":'.repeat(70),
  " ".repeat(40),
];

export type TextMutation = "flip" | "truncate" | "splice" | "remove" | "repeat";
const TEXT_MUTATIONS: readonly TextMutation[] = ["flip", "truncate", "splice", "remove", "repeat"];

/** One to `count` spelling mutations of a text. */
export function mutateText(text: string, dice: Dice, count: number): string {
  let out = text;
  for (let k = 0; k < count; k++) {
    const at = dice.next(out.length + 1);
    switch (dice.pick(TEXT_MUTATIONS)) {
      case "flip":
        out = out.slice(0, at) + dice.pick(ALPHABET) + out.slice(at + 1);
        break;
      case "truncate":
        out = out.slice(0, at);
        break;
      case "splice":
        out = out.slice(0, at) + dice.pick(FRAGMENTS) + out.slice(at);
        break;
      case "remove":
        out = out.slice(0, at) + out.slice(at + 1 + dice.next(8));
        break;
      case "repeat": {
        const end = Math.min(out.length, at + 1 + dice.next(40));
        out = out.slice(0, end) + out.slice(at, end) + out.slice(end);
        break;
      }
    }
  }
  return out;
}

/** Byte-level mutations: any byte, so ill-formed UTF-8 too. */
export function mutateBytes(bytes: Uint8Array, dice: Dice, count: number): Uint8Array {
  let out = Array.from(bytes);
  for (let k = 0; k < count; k++) {
    const at = dice.next(out.length + 1);
    switch (dice.next(4)) {
      case 0:
        out[at] = dice.next(256);
        break;
      case 1:
        out = out.slice(0, at);
        break;
      case 2: {
        const insert = Array.from({ length: 1 + dice.next(4) }, () => dice.pick(NASTY_BYTES));
        out = [...out.slice(0, at), ...insert, ...out.slice(at)];
        break;
      }
      default:
        out.splice(at, 1 + dice.next(4));
    }
  }
  return Uint8Array.from(out.filter((b) => b !== undefined));
}

/** Lead and continuation bytes that make ill-formed sequences: overlongs, surrogates, > U+10FFFF, BOM parts. */
const NASTY_BYTES = [0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xe0, 0xed, 0xa0, 0xef, 0xbb, 0xf0, 0xf4, 0xf5, 0xff, 0x00, 0x22];

// ---- structural ---------------------------------------------------------

/** A wire value that can say what JSON.parse cannot give back: repeated members and raw number texts. */
export type Raw =
  | { readonly t: "lit"; readonly text: string }
  | { readonly t: "str"; readonly v: string }
  | { t: "arr"; items: Raw[] }
  | { t: "obj"; members: [string, Raw][] };

export function toRaw(value: unknown): Raw {
  if (typeof value === "string") return { t: "str", v: value };
  if (Array.isArray(value)) return { t: "arr", items: value.map(toRaw) };
  if (value !== null && typeof value === "object") {
    return { t: "obj", members: Object.keys(value).map((k) => [k, toRaw((value as Record<string, unknown>)[k])]) };
  }
  return { t: "lit", text: JSON.stringify(value) ?? "null" };
}

/** How to write strings: as JSON.stringify does, or with escapes sprinkled in (same content either way). */
export interface Spelling {
  readonly escapes: boolean;
  readonly upperHex: boolean;
  readonly space: boolean;
}

export const PLAIN: Spelling = { escapes: false, upperHex: false, space: false };

export function writeRaw(raw: Raw, spelling: Spelling, dice: Dice): string {
  const ws = () => (spelling.space ? dice.pick(["", " ", "\n", "\t", "\r\n  "]) : "");
  switch (raw.t) {
    case "lit":
      return raw.text;
    case "str":
      return writeString(raw.v, spelling, dice);
    case "arr":
      return `[${ws()}${raw.items.map((i) => writeRaw(i, spelling, dice)).join(`${ws()},${ws()}`)}${ws()}]`;
    case "obj":
      return `{${ws()}${raw.members
        .map(([k, v]) => `${writeString(k, spelling, dice)}${ws()}:${ws()}${writeRaw(v, spelling, dice)}`)
        .join(`${ws()},${ws()}`)}${ws()}}`;
  }
}

function writeString(s: string, spelling: Spelling, dice: Dice): string {
  const plain = JSON.stringify(s);
  if (!spelling.escapes) return plain;
  const hex = (c: number) => {
    const h = c.toString(16).padStart(4, "0");
    return `\\u${spelling.upperHex ? h.toUpperCase() : h}`;
  };
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (pairedAt(s, i)) {
      // A surrogate pair is one character: escape both halves or neither, never one.
      const low = s.charCodeAt(i + 1);
      out += dice.chance(30) ? hex(c) + hex(low) : s.slice(i, i + 2);
      i++;
      continue;
    }
    const mustEscape = c < 0x20 || ch === '"' || ch === "\\" || (c >= 0xd800 && c <= 0xdfff);
    if (mustEscape || dice.chance(30)) out += ch === "/" && dice.chance(50) ? "\\/" : hex(c);
    else out += ch;
  }
  return `${out}"`;
}

/** Whether a high surrogate at i starts a well-formed pair. */
function pairedAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** Names a model might write where they do not belong. */
const NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "state",
  "value",
  "branch",
  "key",
  "entries",
  "fields",
  "arguments",
  "",
];

/** Values to put where another value was. */
const VALUES: readonly Raw[] = [
  { t: "lit", text: "null" },
  { t: "lit", text: "-0" },
  { t: "lit", text: "1e400" },
  { t: "lit", text: "9007199254740993" },
  { t: "lit", text: "1.5" },
  { t: "lit", text: "true" },
  { t: "str", v: "" },
  { t: "str", v: "__proto__" },
  { t: "arr", items: [] },
  { t: "obj", members: [] },
  { t: "obj", members: [["state", { t: "str", v: "absent" }]] },
  {
    t: "obj",
    members: [
      ["state", { t: "str", v: "absent" }],
      ["value", { t: "lit", text: "1" }],
    ],
  },
  {
    t: "obj",
    members: [
      ["state", { t: "str", v: "present" }],
      ["value", { t: "lit", text: "null" }],
    ],
  },
  {
    t: "obj",
    members: [
      ["branch", { t: "lit", text: "99" }],
      ["value", { t: "lit", text: "null" }],
    ],
  },
  { t: "obj", members: [["entries", { t: "arr", items: [] }]] },
];

export type StructuralMutation =
  | "duplicate-member"
  | "drop-member"
  | "add-member"
  | "replace-value"
  | "duplicate-element"
  | "wrap-present"
  | "unwrap-present"
  | "absent-with-value";

const STRUCTURAL: readonly StructuralMutation[] = [
  "duplicate-member",
  "drop-member",
  "add-member",
  "replace-value",
  "duplicate-element",
  "wrap-present",
  "unwrap-present",
  "absent-with-value",
];

/** Every container in a raw tree, the root first. */
function containers(raw: Raw): (Raw & { t: "arr" | "obj" })[] {
  const out: (Raw & { t: "arr" | "obj" })[] = [];
  const stack: Raw[] = [raw];
  while (stack.length > 0) {
    const r = stack.pop()!;
    if (r.t === "arr") {
      out.push(r);
      stack.push(...r.items);
    } else if (r.t === "obj") {
      out.push(r);
      stack.push(...r.members.map(([, v]) => v));
    }
  }
  return out;
}

function clone(raw: Raw): Raw {
  if (raw.t === "arr") return { t: "arr", items: raw.items.map(clone) };
  if (raw.t === "obj") return { t: "obj", members: raw.members.map(([k, v]) => [k, clone(v)]) };
  return raw;
}

/** Apply `count` content mutations to a copy of raw. Returns the copy and the mutations applied. */
export function mutateStructure(raw: Raw, dice: Dice, count: number): { raw: Raw; applied: StructuralMutation[] } {
  const root = clone(raw);
  const applied: StructuralMutation[] = [];
  for (let k = 0; k < count; k++) {
    const all = containers(root);
    if (all.length === 0) break;
    const target = dice.pick(all);
    const m = dice.pick(STRUCTURAL);
    if (applyAt(target, m, dice)) applied.push(m);
  }
  return { raw: root, applied };
}

function applyAt(c: Raw & { t: "arr" | "obj" }, m: StructuralMutation, dice: Dice): boolean {
  if (c.t === "arr") {
    if (c.items.length === 0 && m !== "add-member" && m !== "replace-value") return false;
    const i = dice.next(c.items.length);
    switch (m) {
      case "duplicate-element":
      case "duplicate-member":
        c.items.splice(i, 0, clone(c.items[i]!));
        return true;
      case "drop-member":
        c.items.splice(i, 1);
        return true;
      case "add-member":
        c.items.push(clone(dice.pick(VALUES)));
        return true;
      case "replace-value":
        if (c.items.length === 0) return false;
        c.items[i] = clone(dice.pick(VALUES));
        return true;
      default:
        return wrapOrUnwrap(c.items, i, m, dice);
    }
  }
  const members = c.members;
  const i = dice.next(members.length);
  switch (m) {
    case "duplicate-member":
    case "duplicate-element": {
      if (members.length === 0) return false;
      const [name, value] = members[i]!;
      // The same name again, with this value or another one: a duplicate either way.
      members.splice(dice.next(members.length + 1), 0, [
        name,
        dice.chance(50) ? clone(value) : clone(dice.pick(VALUES)),
      ]);
      return true;
    }
    case "drop-member":
      if (members.length === 0) return false;
      members.splice(i, 1);
      return true;
    case "add-member":
      members.splice(dice.next(members.length + 1), 0, [dice.pick(NAMES), clone(dice.pick(VALUES))]);
      return true;
    case "replace-value":
      if (members.length === 0) return false;
      members[i]![1] = clone(dice.pick(VALUES));
      return true;
    case "absent-with-value": {
      // A presence tag that says absent but carries a value.
      const state = members.find(([k]) => k === "state");
      if (state === undefined) return false;
      state[1] = { t: "str", v: "absent" };
      if (!members.some(([k]) => k === "value")) members.push(["value", clone(dice.pick(VALUES))]);
      return true;
    }
    default: {
      if (members.length === 0) return false;
      const values = members.map(([, v]) => v);
      const changed = wrapOrUnwrap(values, i, m, dice);
      members[i]![1] = values[i]!;
      return changed;
    }
  }
}

function wrapOrUnwrap(items: Raw[], i: number, m: StructuralMutation, dice: Dice): boolean {
  const item = items[i]!;
  if (m === "wrap-present") {
    items[i] = {
      t: "obj",
      members: [
        ["state", { t: "str", v: "present" }],
        ["value", item],
      ],
    };
    return true;
  }
  if (m === "unwrap-present" && item.t === "obj") {
    const value = item.members.find(([k]) => k === "value");
    if (value === undefined) return false;
    items[i] = value[1];
    return true;
  }
  if (m === "absent-with-value") {
    items[i] = {
      t: "obj",
      members: [
        ["state", { t: "str", v: "absent" }],
        ["value", dice.chance(50) ? item : clone(dice.pick(VALUES))],
      ],
    };
    return true;
  }
  return false;
}
