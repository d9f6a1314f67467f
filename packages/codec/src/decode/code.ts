/**
 * Code building that is safe by construction (after ajv's lib/compile/codegen):
 * generated JavaScript is a `Code` value, made only by the `_` template (and
 * `join`). The template's fixed text is the program's own source; every value
 * put into it is either `Code`/a `Name` (spliced as it is) or plain data (a
 * string, number, boolean or null), which becomes a JSON literal. So data from
 * a schema or a bundle (member names, enum values, discriminators) can only
 * ever be a literal, and TypeScript refuses a plain string where code is
 * expected: there is no constructor to call and no raw splice.
 *
 * Names come from a `Scope`: each passes an identifier check, and a scope
 * never hands out the same name twice nor one it was told is taken (a
 * generated function's parameters and helpers), so the locals of one
 * function cannot collide. A scope numbers its names itself, so two
 * functions that do the same thing read the same and can be shared
 * (decode/generate.ts).
 */

/** Only this module can make a Code or a Name. */
const MINT: unique symbol = Symbol("strictwire.code");

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words that are no identifier, though the pattern above takes them. */
const RESERVED = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof let new null return static super switch this throw true try " +
    "typeof undefined var void while with yield arguments eval NaN Infinity"
  ).split(" "),
);

export class Name {
  readonly id: string;
  /** Made by a Scope only (the mint is module-private). */
  constructor(mint: typeof MINT, id: string) {
    if (mint !== MINT) throw new Error("strictwire: a Name comes from a Scope");
    if (!IDENTIFIER.test(id) || RESERVED.has(id)) throw new Error(`strictwire: ${JSON.stringify(id)} is no identifier`);
    this.id = id;
  }
}

/** A piece of generated JavaScript: trusted text and names, nothing else. */
export class Code {
  /** Text that is code as it stands (the template's own, or literals made here), and names. */
  readonly items: readonly (string | Name)[];
  /** Made by `_` and `join` only (the mint is module-private). */
  constructor(mint: typeof MINT, items: readonly (string | Name)[]) {
    if (mint !== MINT) throw new Error("strictwire: Code comes from the _ template");
    this.items = items;
  }
}

/** What a template takes: code and names as they are, plain data as a literal. */
export type Interpolated = Code | Name | string | number | boolean | null;

/**
 * A JavaScript literal for a JSON value. JSON.stringify writes no code, only
 * a string or number literal; U+2028, U+2029 and `<` are escaped as well, so
 * the literal is also safe where older parsers end a line or where a module
 * sits inside HTML. A number that JSON cannot write (NaN, an infinity) is a
 * bug here, not a `null`.
 */
export function literal(value: string | number | boolean | null): string {
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`strictwire: no literal for ${value}`);
  const text = JSON.stringify(value);
  if (typeof text !== "string") throw new Error("strictwire: no literal for this value");
  return text
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
    .replace(/</g, "\\u003c");
}

/** Code from a template: see the header. */
export function _(strs: TemplateStringsArray, ...values: readonly Interpolated[]): Code {
  // A template's strings are frozen by the language; an array passed by hand is not.
  if (!Object.isFrozen(strs) || !Array.isArray(strs.raw)) throw new Error("strictwire: _ is a template tag");
  const items: (string | Name)[] = [strs[0]!];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value instanceof Code) items.push(...value.items);
    else if (value instanceof Name) items.push(value);
    else if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      items.push(literal(value));
    else throw new Error("strictwire: only code, names and plain data go into code");
    items.push(strs[i + 1]!);
  }
  return new Code(MINT, items);
}

/** The pieces one after another, `separator` between. */
export function join(pieces: readonly Code[], separator: Code = _`\n`): Code {
  const items: (string | Name)[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0) items.push(...separator.items);
    items.push(...piece.items);
  });
  return new Code(MINT, items);
}

/** The text of some code; `rename` maps a name to the one it stands for (a shared function's). */
export function render(code: Code, rename?: (name: Name) => Name): string {
  let out = "";
  for (const item of code.items) out += typeof item === "string" ? item : (rename?.(item) ?? item).id;
  return out;
}

/**
 * Where names come from. `taken` are names already in use where the scope's
 * names will live (parameters, helpers); `reserved` are prefixes another scope
 * numbers (function names), so this one never makes them.
 */
export class Scope {
  readonly #used = new Set<string>();
  readonly #counts = new Map<string, number>();
  readonly #reserved: ReadonlySet<string>;

  constructor(taken: Iterable<string> = [], reserved: Iterable<string> = []) {
    for (const id of taken) this.#used.add(id);
    this.#reserved = new Set(reserved);
  }

  /** A new name: the prefix itself the first time, then the prefix numbered. Prefixes are letters only. */
  name(prefix: string): Name {
    if (!/^[A-Za-z]+$/.test(prefix) || this.#reserved.has(prefix)) {
      throw new Error(`strictwire: ${JSON.stringify(prefix)} cannot prefix a name here`);
    }
    let n = this.#counts.get(prefix) ?? 0;
    let id = n === 0 ? prefix : `${prefix}${n}`;
    while (this.#used.has(id) || RESERVED.has(id)) id = `${prefix}${++n}`;
    this.#counts.set(prefix, n + 1);
    this.#used.add(id);
    return new Name(MINT, id);
  }

  /** A name always numbered (`prefix0`, `prefix1`, ...), for a prefix other scopes reserve. */
  numbered(prefix: string): Name {
    if (!/^[A-Za-z]+$/.test(prefix)) throw new Error(`strictwire: ${JSON.stringify(prefix)} cannot prefix a name`);
    const n = this.#counts.get(prefix) ?? 0;
    this.#counts.set(prefix, n + 1);
    const id = `${prefix}${n}`;
    this.#used.add(id);
    return new Name(MINT, id);
  }
}

/**
 * The text indented by its braces, two spaces a level. String literals are
 * skipped (literals never hold a raw line break, so every line starts
 * outside one); a line that opens with `}` or a switch's `case`/`default`
 * sits one level out.
 */
export function indent(text: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const outdent = line.startsWith("}") || /^(case\b|default:)/.test(line) ? 1 : 0;
    out.push(`${"  ".repeat(Math.max(0, depth - outdent))}${line}`);
    let quote = "";
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quote !== "") {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
      } else if (c === '"' || c === "'") quote = c;
      else if (c === "{") depth++;
      else if (c === "}") depth--;
    }
  }
  return out.join("\n");
}
