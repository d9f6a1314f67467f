/**
 * BFCL multi-turn ground truth is Python call text, e.g.
 * `mv(source='a.pdf', destination='temp')` or `mean([37])`. This reads the
 * subset it uses: a dotted name, positional and keyword arguments, and
 * Python literals (strings, numbers, True/False/None, lists, tuples, dicts
 * with string keys). Anything else is reported, not guessed.
 */

export interface PyCall {
  readonly name: string;
  readonly positional: readonly unknown[];
  readonly keywords: readonly (readonly [string, unknown])[];
}

export type Parsed = { ok: true; call: PyCall } | { ok: false; error: string };

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
  peek(): string {
    this.ws();
    return this.s[this.i] ?? "";
  }
  eat(c: string): boolean {
    if (this.peek() !== c) return false;
    this.i++;
    return true;
  }
  expect(c: string): void {
    if (!this.eat(c)) throw new SyntaxError(`expected ${c} at ${this.i}`);
  }
  identifier(): string | undefined {
    this.ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i));
    if (m === null) return undefined;
    this.i += m[0].length;
    return m[0];
  }
}

export function parsePyCall(text: string): Parsed {
  const r = new Reader(text);
  try {
    let name = r.identifier();
    if (name === undefined) throw new SyntaxError("expected a function name");
    while (r.eat(".")) {
      const part = r.identifier();
      if (part === undefined) throw new SyntaxError("expected a name after .");
      name += `.${part}`;
    }
    r.expect("(");
    const positional: unknown[] = [];
    const keywords: [string, unknown][] = [];
    while (!r.eat(")")) {
      const save = r.i;
      const id = r.identifier();
      if (id !== undefined && r.eat("=")) keywords.push([id, literal(r)]);
      else {
        r.i = save;
        if (keywords.length > 0) throw new SyntaxError("a positional argument after a keyword argument");
        positional.push(literal(r));
      }
      if (r.peek() !== ")") r.expect(",");
    }
    r.ws();
    if (r.i !== text.length) throw new SyntaxError(`unexpected text after the call at ${r.i}`);
    return { ok: true, call: { name, positional, keywords } };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function literal(r: Reader): unknown {
  const c = r.peek();
  if (c === "'" || c === '"') return str(r);
  if (c === "[" || c === "(") {
    const close = c === "[" ? "]" : ")";
    r.i++;
    const out: unknown[] = [];
    while (!r.eat(close)) {
      out.push(literal(r));
      if (r.peek() !== close) r.expect(",");
    }
    return out;
  }
  if (c === "{") {
    r.i++;
    const out: Record<string, unknown> = {};
    while (!r.eat("}")) {
      if (r.peek() !== "'" && r.peek() !== '"') throw new SyntaxError(`a dict key that is not a string at ${r.i}`);
      const key = str(r);
      r.expect(":");
      Object.defineProperty(out, key, { value: literal(r), enumerable: true, writable: true, configurable: true });
      if (r.peek() !== "}") r.expect(",");
    }
    return out;
  }
  const number = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(r.s.slice(r.i));
  if (number !== null) {
    r.i += number[0].length;
    const n = Number(number[0]);
    if (!Number.isFinite(n)) throw new SyntaxError(`a number JSON cannot carry: ${number[0]}`);
    return n;
  }
  const word = r.identifier();
  if (word === "True") return true;
  if (word === "False") return false;
  if (word === "None") return null;
  throw new SyntaxError(`not a literal at ${r.i}: ${word ?? c}`);
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "0": "\0",
  a: "\u0007",
  b: "\b",
  f: "\f",
  v: "\v",
  "\n": "",
};

function str(r: Reader): string {
  const quote = r.s[r.i]!;
  r.i++;
  let out = "";
  while (r.i < r.s.length) {
    const ch = r.s[r.i++]!;
    if (ch === quote) return out;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = r.s[r.i++] ?? "";
    if (e === "x" || e === "u") {
      const width = e === "x" ? 2 : 4;
      const hex = r.s.slice(r.i, r.i + width);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) throw new SyntaxError(`a bad \\${e} escape`);
      out += String.fromCharCode(Number.parseInt(hex, 16));
      r.i += width;
    } else if (Object.hasOwn(ESCAPES, e)) out += ESCAPES[e];
    else out += `\\${e}`; // Python keeps an unknown escape as written
  }
  throw new SyntaxError("an unterminated string");
}
