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
 * (generate/decoder.ts).
 *
 * A `ValueScope` (after ajv's) names the values generated code refers to,
 * each with a `ref` (the value itself, what code built in memory is handed)
 * and a `code` (what a module writes to make it): one mechanism for both.
 * Code another generator wrote (ajv's validators) enters through `adopt`
 * only, which one audited function calls (validate/ajv-code.ts).
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

/**
 * Code another generator wrote, as it stands: the one door from text to code.
 * Only validate/ajv-code.ts calls it, after its audit of ajv's output (a test
 * holds that no other module imports it).
 */
export function adopt(text: string): Code {
  return new Code(MINT, [text]);
}

/** The code with names replaced (a shared function's for each that stands for it). */
export function renamed(code: Code, rename: (name: Name) => Name): Code {
  return new Code(
    MINT,
    code.items.map((item) => (typeof item === "string" ? item : rename(item))),
  );
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

  /**
   * A new name: the prefix itself the first time, then the prefix numbered.
   * Prefixes start with a letter and never end with a digit, so that no
   * numbered name is another prefix's.
   */
  name(prefix: string): Name {
    if (!/^[A-Za-z](?:[A-Za-z0-9_]*[A-Za-z_])?$/.test(prefix) || this.#reserved.has(prefix)) {
      throw new Error(`strictwire: ${JSON.stringify(prefix)} cannot prefix a name here`);
    }
    let n = this.#counts.get(prefix) ?? 0;
    let id = n === 0 ? prefix : `${prefix}${n}`;
    while (this.#used.has(id) || RESERVED.has(id)) id = `${prefix}${++n}`;
    this.#counts.set(prefix, n + 1);
    this.#used.add(id);
    return new Name(MINT, id);
  }

  /**
   * This very name, for what must be spelt so (a module's exports, the
   * imports it names): refused if it is taken or another scope's numbered name.
   */
  exact(id: string): Name {
    const numbered = /^(.*?)\d+$/.exec(id)?.[1];
    if (this.#used.has(id) || (numbered !== undefined && this.#reserved.has(numbered))) {
      throw new Error(`strictwire: ${JSON.stringify(id)} is taken here`);
    }
    const name = new Name(MINT, id);
    this.#used.add(id);
    return name;
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

/** A value generated code refers to: itself (`ref`), and the code that makes it in a module. */
export interface ScopeValue<T = unknown> {
  readonly ref: T;
  readonly code: Code;
}

/**
 * The values some code refers to, each under a name from `names` (after
 * ajv's ValueScope and `scopeValue`). Code built in memory is handed the
 * refs by name; a module writes each value's code under its name. A ref
 * named twice keeps its first name, so a value is written once.
 */
export class ValueScope {
  readonly #names: Scope;
  readonly #values: { readonly name: Name; readonly value: ScopeValue }[] = [];
  readonly #byRef = new Map<unknown, Name>();

  constructor(names: Scope) {
    this.#names = names;
  }

  /**
   * The name of a value: a new one from the prefix, or the one its ref (an
   * object or function) already has. The value may be given by a function of
   * its name, for code that names itself (a function declaration).
   */
  value<T>(prefix: string, value: ScopeValue<T> | ((name: Name) => ScopeValue<T>)): Name {
    return this.#add(() => this.#names.name(prefix), value);
  }

  /** As `value`, under this very name (Scope.exact). */
  exact<T>(id: string, value: ScopeValue<T> | ((name: Name) => ScopeValue<T>)): Name {
    return this.#add(() => this.#names.exact(id), value);
  }

  #add<T>(named: () => Name, value: ScopeValue<T> | ((name: Name) => ScopeValue<T>)): Name {
    const ref = typeof value === "function" ? undefined : value.ref;
    const shared = (typeof ref === "object" && ref !== null) || typeof ref === "function";
    const known = shared ? this.#byRef.get(ref) : undefined;
    if (known !== undefined) return known;
    const name = named();
    const made = typeof value === "function" ? value(name) : value;
    this.#values.push({ name, value: made });
    if (shared) this.#byRef.set(ref, name);
    return name;
  }

  /** The code that makes a named value (for a module). */
  code(name: Name): Code {
    return this.#entry(name).code;
  }

  /** The value a name stands for (for code built in memory). */
  ref(name: Name): unknown {
    return this.#entry(name).ref;
  }

  #entry(name: Name): ScopeValue {
    const found = this.#values.find((v) => v.name === name);
    if (found === undefined) throw new Error(`strictwire: ${name.id} names no value of this scope`);
    return found.value;
  }
}

/** The code indented by its braces (see indentText): the same code, laid out. */
export function indent(code: Code): Code {
  return new Code(MINT, [indentText(render(code))]);
}

/**
 * The text indented by its braces, two spaces a level. String literals are
 * skipped (literals never hold a raw line break, so every line starts
 * outside one); a line that opens with `}` or a switch's `case`/`default`
 * sits one level out.
 */
function indentText(text: string): string {
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
