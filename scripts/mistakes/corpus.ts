/**
 * The mistake corpus (fixtures/mistakes/): plausible wrong arguments texts a
 * model writes, each with the facts its feedback must contain. Shared by the
 * generator, the scorer (pnpm feedback-score) and the corpus's integrity test.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CodecError, CompileOptions } from "@strictwire/codec";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const MISTAKES_DIR = join(ROOT, "fixtures/mistakes");
export const SCHEMAS_DIR = join(ROOT, "fixtures/schemas");

/** The kinds of mistake the corpus covers; each appears at least four times. */
export const KINDS = [
  "wrong-tag",
  "bare-value",
  "missing-member",
  "undeclared-member",
  "type",
  "enum",
  "bounds",
  "format",
  "pattern",
  "union-branch",
  "map-key",
  "duplicate-entry",
  "duplicate-key",
  "truncation",
] as const;
export type Kind = (typeof KINDS)[number];

/** Codes about the text itself: decode must return exactly these whatever the wire looks like. */
export const TEXT_CODES: ReadonlySet<string> = new Set([
  "invalid-json",
  "duplicate-key",
  "duplicate-entry",
  "entry-shadows-field",
  "unsafe-number",
  "invalid-utf8",
]);

/** One mention: a string, or alternatives of which any one will do. */
export type Mention = string | readonly string[];

export interface Facts {
  /** JSON Pointer in the ORIGINAL value's terms (or alternatives, any one will do); omitted when the root is meant. */
  readonly path?: string | readonly string[];
  readonly mentions: readonly Mention[];
}

export interface Mistake {
  readonly name: string;
  readonly kind: Kind;
  /** Compile options over the schema fixture's own; omitted means the defaults (target openai, tagged). */
  readonly options?: CompileOptions;
  /** The raw arguments text, exactly as the model wrote it. */
  readonly text: string;
  readonly expectedCode: string;
  readonly facts: Facts;
  /** Why a model would plausibly write this. */
  readonly note: string;
}

export interface LoadedMistake extends Mistake {
  readonly schemaName: string;
  readonly schema: unknown;
  readonly compileOptions: CompileOptions;
}

interface SchemaFile {
  readonly schema: unknown;
  readonly options?: CompileOptions;
}

export function loadSchemaFixture(name: string): SchemaFile {
  return JSON.parse(readFileSync(join(SCHEMAS_DIR, `${name}.json`), "utf8")) as SchemaFile;
}

/** Every mistake, in file then entry order. */
export function loadMistakes(dir = MISTAKES_DIR): LoadedMistake[] {
  const out: LoadedMistake[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const schemaName = file.slice(0, -5);
    const fixture = loadSchemaFixture(schemaName);
    const entries = JSON.parse(readFileSync(join(dir, file), "utf8")) as Mistake[];
    for (const m of entries) {
      out.push({
        ...m,
        schemaName,
        schema: fixture.schema,
        compileOptions: { ...fixture.options, ...m.options, name: schemaName.replaceAll("-", "_") },
      });
    }
  }
  return out;
}

const ALNUM = /[A-Za-z0-9]/;

/**
 * Mentions are matched case-insensitively, with any whitespace allowed between
 * characters (`"state":"absent"` matches `{"state": "absent"}`), and as whole
 * tokens: a mention that starts with a letter or digit must not follow
 * another one, and one that ends with a digit must not precede a digit (`0`
 * does not match `10` or `05`; `character` still matches `characters`).
 */
function mentionPattern(m: string): RegExp {
  const chars = [...m.replace(/\s+/g, "")];
  const body = chars.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s*");
  const start = ALNUM.test(chars[0] ?? "") ? "(?<![A-Za-z0-9])" : "";
  const end = /[0-9]/.test(chars.at(-1) ?? "") ? "(?![0-9])" : "";
  return new RegExp(`${start}${body}${end}`, "iu");
}

export function mentions(feedback: string, mention: Mention): boolean {
  const options = typeof mention === "string" ? [mention] : mention;
  return options.some((m) => mentionPattern(m).test(feedback));
}

const POINTER_CHAR = /[A-Za-z0-9_~/.-]/;

/**
 * The feedback names `path` as a whole JSON Pointer: not as the tail of wire
 * plumbing (`/arguments/milestone`) nor as the head of a longer pointer
 * (`/milestone/value`).
 */
export function namesPath(feedback: string, path: string): boolean {
  let from = 0;
  for (;;) {
    const at = feedback.indexOf(path, from);
    if (at < 0) return false;
    const before = at === 0 ? "" : feedback[at - 1]!;
    const after = feedback[at + path.length] ?? "";
    const endsCleanly =
      after === "" ||
      !POINTER_CHAR.test(after) ||
      (after === "." && !/[A-Za-z0-9_]/.test(feedback[at + path.length + 1] ?? ""));
    if ((before === "" || !POINTER_CHAR.test(before)) && endsCleanly) return true;
    from = at + 1;
  }
}

export const FEEDBACK_LIMIT = 700;

export interface FactCheck {
  readonly fact: string;
  readonly present: boolean;
}

export interface Score {
  readonly name: string;
  readonly schema: string;
  readonly kind: Kind;
  readonly code: string | null;
  readonly expectedCode: string;
  readonly codeMatches: boolean;
  readonly facts: readonly FactCheck[];
  /** Every fact is present. */
  readonly namesCause: boolean;
  readonly feedbackLength: number;
  readonly withinLimit: boolean;
  readonly feedback: string;
}

export function describeMention(m: Mention): string {
  return typeof m === "string" ? JSON.stringify(m) : m.map((x) => JSON.stringify(x)).join(" | ");
}

/** Score one decode failure against the mistake's facts (a decode that succeeded scores nothing). */
export function scoreMistake(m: LoadedMistake, error: CodecError | null): Score {
  const feedback = error?.feedback ?? "";
  const facts: FactCheck[] = [];
  const path = m.facts.path;
  if (path !== undefined) {
    const paths = typeof path === "string" ? [path] : path;
    facts.push({ fact: `path ${paths.join(" | ")}`, present: paths.some((p) => namesPath(feedback, p)) });
  }
  for (const mention of m.facts.mentions)
    facts.push({ fact: describeMention(mention), present: mentions(feedback, mention) });
  return {
    name: m.name,
    schema: m.schemaName,
    kind: m.kind,
    code: error?.code ?? null,
    expectedCode: m.expectedCode,
    codeMatches: error?.code === m.expectedCode,
    facts,
    namesCause: error !== null && facts.every((f) => f.present),
    feedbackLength: feedback.length,
    withinLimit: error !== null && feedback.length <= FEEDBACK_LIMIT,
    feedback,
  };
}
