/**
 * Every error's words, apart from the checks that find the problems. Three
 * formatters over the same issues: `messageText` for logs, `feedbackText`
 * for whoever must act (the model, for a refused call), `errorJson` for the
 * CLI's `--json`. A check says what broke (code, path, issues); this module
 * alone says it to someone, and knows who that is from the error code: the
 * model that wrote a refused call, the author of a schema that does not
 * compile, or the program that called the codec with a bad value, option or
 * bundle. The author's words (compile's refusals) are author.ts's: only the
 * build side makes those errors, so a run-time bundle carries none of them.
 */
import type { CodecError, ErrorCode, Issue } from "../errors.js";

export const FEEDBACK_LIMIT = 700;

/** Who acts on an error: the model whose call was refused, the schema's author, or the calling program. */
export type Audience = "model" | "author" | "caller";

const AUDIENCE: Readonly<Record<ErrorCode, Audience>> = {
  "invalid-json": "model",
  "invalid-utf8": "model",
  "input-too-large": "model",
  "too-deep": "model",
  "too-many-nodes": "model",
  "duplicate-key": "model",
  "unsafe-number": "model",
  "wire-violation": "model",
  "duplicate-entry": "model",
  "entry-shadows-field": "model",
  "contract-violation": "model",
  "stream-violation": "caller",
  "invalid-value": "caller",
  "undeclared-member": "caller",
  "exceeds-decoder-limits": "caller",
  "invalid-options": "caller",
  "invalid-schema": "author",
  "unsupported-schema": "author",
  "remote-ref": "author",
  "dynamic-ref": "author",
  "unresolved-ref": "author",
  "unsafe-pattern": "author",
  "expansion-limit": "author",
  "schema-too-large": "author",
  "target-limit": "author",
  "code-generation-unavailable": "caller",
  "invalid-bundle": "caller",
  "digest-mismatch": "caller",
  "unsupported-format": "caller",
  "answer-refused": "caller",
  "answer-cut": "caller",
  "answer-blocked": "caller",
  "no-answer": "caller",
};

export const audienceOf = (code: ErrorCode): Audience => AUDIENCE[code];

/** The codes of compile's refusals, worded for the schema's author (author.ts). */
export type AuthorCode =
  | "invalid-schema"
  | "unsupported-schema"
  | "remote-ref"
  | "dynamic-ref"
  | "unresolved-ref"
  | "unsafe-pattern"
  | "expansion-limit"
  | "schema-too-large"
  | "target-limit";

/** Every other code: the model's and the calling program's, which this module words. */
export type WordedCode = Exclude<ErrorCode, AuthorCode>;

/** What the calling program can do about each of its own errors. */
const CALLER_ADVICE: Readonly<Partial<Record<ErrorCode, string>>> = {
  "invalid-options": "Correct the option named.",
  "stream-violation":
    "The provider's stream broke its own protocol for this call: do not act on it; send the request again, and report the stream if it recurs.",
  "invalid-value": "The value breaks the tool's own schema: correct the value before encoding it.",
  "undeclared-member": "Remove the member, or declare it in the schema and compile again.",
  "exceeds-decoder-limits": "Send a smaller value, or compile with larger `limits`.",
  "invalid-bundle": "Compile the schema again and load the new bundle; a bundle is not edited by hand.",
  "digest-mismatch": "Compile the schema again: the bundle's parts no longer belong together.",
  "unsupported-format": "Compile the schema again with this strictwire version.",
  "answer-refused":
    "The model declined to answer: rephrase the request, or handle the refusal (its text is in the message).",
  "answer-cut": "Raise the request's output token limit, or ask for a smaller answer, and send the request again.",
  "answer-blocked": "The provider's safety filter stopped the answer: change the request or its safety settings.",
  "no-answer": "The response holds no answer text: check the request asks for one (no forced tool call).",
};

/** What the calling program can do about an error with this code; undefined for another audience's. */
export function callerAdvice(code: string): string | undefined {
  return Object.hasOwn(CALLER_ADVICE, code) ? CALLER_ADVICE[code as ErrorCode] : undefined;
}

/**
 * The feedback for an error whose producer has no better words: for the
 * model or for the calling program, by its code (the schema's author's:
 * author.ts).
 */
export function feedbackFor(code: WordedCode, path: string, message: string): string {
  if (AUDIENCE[code] === "caller") {
    return cut(`${message}${path === "" ? "" : ` at ${path}`} [${code}]. ${CALLER_ADVICE[code] ?? ""}`.trim());
  }
  const at = path === "" ? "" : ` at ${path}`;
  return cut(`The tool call was rejected (${code}${at}): ${message}. Correct the arguments and call the tool again.`);
}

export interface ErrorParts {
  feedback?: string | undefined;
  issues?: readonly Issue[] | undefined;
  tree?: readonly Issue[] | undefined;
  offset?: number | undefined;
}

/**
 * An error value. Without `feedback`, the text for whoever must act on this
 * code is worded here, by its code (`feedbackFor`), on demand: the first
 * read of `feedback` words it (a walk's failures are mostly thrown away or
 * worded better by the codec). It reads, spreads, clones and serializes as
 * the plain field it is declared as. A refusal of the schema is author.ts's
 * `fail`, which words every code.
 */
export function fail(
  code: WordedCode,
  path: string,
  message: string,
  extra?: ErrorParts,
): { readonly ok: false; readonly error: CodecError };
/** Any code, its feedback given (nothing to word). */
export function fail(
  code: ErrorCode,
  path: string,
  message: string,
  extra: ErrorParts & { readonly feedback: string },
): { readonly ok: false; readonly error: CodecError };
export function fail(
  code: ErrorCode,
  path: string,
  message: string,
  extra: ErrorParts = {},
): { readonly ok: false; readonly error: CodecError } {
  // Any code reaching feedbackFor is a worded one (the overloads: another comes with its feedback).
  return failWorded(
    feedbackFor as (code: ErrorCode, path: string, message: string) => string,
    code,
    path,
    message,
    extra,
  );
}

/** An error value whose feedback `word` gives, on the first read (fail's). */
export function failWorded<C extends ErrorCode>(
  word: (code: C, path: string, message: string) => string,
  code: C,
  path: string,
  message: string,
  extra: ErrorParts,
): { readonly ok: false; readonly error: CodecError } {
  let feedback = extra.feedback;
  const error: CodecError = {
    code,
    path,
    message,
    get feedback(): string {
      feedback ??= word(code, path, message);
      return feedback;
    },
    ...(extra.issues ? { issues: extra.issues } : {}),
    ...(extra.tree ? { tree: extra.tree } : {}),
    ...(extra.offset !== undefined ? { offset: extra.offset } : {}),
  };
  return { ok: false, error };
}

/** A problem with the text itself (a parse error): where, what, and the rule to follow. */
export function textFeedback(code: ErrorCode, path: string, message: string, hint: string): string {
  const at = path === "" ? "" : ` at ${path}`;
  return cut(`The arguments were rejected (${code}${at}): ${message}. ${hint}`.trim());
}

/** A failure met while rebuilding the value through the plan (one issue, its own hint). */
export function rebuildFeedback(tool: string, error: CodecError): string {
  const hints: Partial<Record<ErrorCode, string>> = {
    "duplicate-entry": "Give each key once.",
    "entry-shadows-field": 'Set declared fields under "fields", not as entries.',
    "wire-violation": "Write the arguments again exactly in the schema's shape.",
  };
  return cut(
    `The arguments for ${tool} were rejected at ${error.path || "(root)"}: ${error.message}. ${hints[error.code] ?? ""}`.trim(),
  );
}

/** The model broke the wire schema: every issue in the original value's terms. */
export function wireViolationText(tool: string, issues: readonly Issue[]): { message: string; feedback: string } {
  return {
    message: messageText("the arguments do not match the wire schema", issues),
    feedback: feedbackText(
      `The arguments for ${tool} do not follow the tool's parameter schema:`,
      issues,
      `Write them again in the schema's shape and call ${tool} again.`,
    ),
  };
}

/** The value is well-formed but the contract refuses it (a relaxed constraint, a library refinement). */
export function contractViolationText(tool: string, issues: readonly Issue[]): { message: string; feedback: string } {
  return {
    message: messageText("the decoded arguments break the tool's contract", issues),
    feedback: feedbackText(
      `The arguments for ${tool} are well-formed but not acceptable:`,
      issues,
      `Correct these values and call ${tool} again.`,
    ),
  };
}

function line(i: Issue): string {
  return `${i.path === "" ? "(root)" : i.path}: ${i.message}`;
}

export function cut(s: string, max = FEEDBACK_LIMIT): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * `head`, the issues that fit, "and N more", `tail`; never longer than the limit.
 * Each issue is cut so that one long one cannot crowd out the rest.
 */
export function feedbackText(head: string, issues: readonly Issue[], tail: string, limit = FEEDBACK_LIMIT): string {
  const room = limit - head.length - tail.length - 2;
  const lines: string[] = [];
  let used = 0;
  for (let k = 0; k < issues.length; k++) {
    const more = issues.length - k - 1;
    const reserve = more > 0 ? ` and ${more} more.`.length + 2 : 0;
    const text = cut(line(issues[k]!), Math.max(80, Math.floor(room * 0.6)));
    if (used + text.length + 2 + reserve > room && lines.length > 0) break;
    lines.push(text);
    used += text.length + 2;
  }
  const hidden = issues.length - lines.length;
  const body = lines.join("; ") + (hidden > 0 ? `; and ${hidden} more` : "");
  return cut(`${head} ${body}. ${tail}`.trim(), limit);
}

/** Every issue, one after another, for a person reading logs. */
export function messageText(head: string, issues: readonly Issue[], limit = 20): string {
  return `${head}: ${issueList(issues, limit)}`;
}

/** One line per issue, at most `limit` of them, "and N more". */
export function issueList(issues: readonly Issue[], limit = 5): string {
  const shown = issues.slice(0, limit).map(line);
  if (issues.length > limit) shown.push(`and ${issues.length - limit} more`);
  return shown.join("; ");
}

/** The issue as handed out: without the validator's internals; a union keeps its branches. */
export function publicIssue(i: Issue): Issue {
  return {
    path: i.path,
    ...(i.at !== undefined ? { at: i.at } : {}),
    ...(i.keyword !== undefined ? { keyword: i.keyword } : {}),
    message: i.message,
    ...(i.branches !== undefined ? { branches: i.branches.map((b) => b.map(publicIssue)) } : {}),
    ...(i.chosen !== undefined ? { chosen: i.chosen } : {}),
  };
}

/** An issue as `--json` prints it: the path as a pointer and as steps, the rule, the words; branches nested. */
export interface IssueJson {
  readonly path: string;
  readonly at?: readonly (string | number)[];
  readonly rule?: string;
  readonly message: string;
  readonly branches?: readonly (readonly IssueJson[])[];
  readonly chosen?: number;
}

function issueJson(i: Issue): IssueJson {
  return {
    path: i.path,
    ...(i.at !== undefined ? { at: [...i.at] } : {}),
    ...(i.keyword !== undefined ? { rule: i.keyword } : {}),
    message: i.message,
    ...(i.branches !== undefined ? { branches: i.branches.map((b) => b.map(issueJson)) } : {}),
    ...(i.chosen !== undefined ? { chosen: i.chosen } : {}),
  };
}

/**
 * The shape the CLI's `--json` prints for an error: `code, path, message,
 * feedback`, and `issues` when a validator found problems (as a tree: a
 * failed union lists each branch's issues and the branch taken as meant).
 */
export interface ErrorJson {
  readonly code: string;
  readonly path: string;
  readonly message: string;
  readonly feedback: string;
  readonly issues?: readonly IssueJson[];
}

export function errorJson(
  error: Omit<ErrorJson, "issues"> & { readonly issues?: readonly Issue[]; readonly tree?: readonly Issue[] },
): ErrorJson {
  // The tree when there is one (unions with their branches), but only for errors with issues to show:
  // a parse error is its own single problem.
  const listed = error.issues !== undefined && error.issues.length > 0 ? (error.tree ?? error.issues) : undefined;
  return {
    code: error.code,
    path: error.path,
    message: error.message,
    feedback: error.feedback,
    ...(listed !== undefined && listed.length > 0 ? { issues: listed.map(issueJson) } : {}),
  };
}

/**
 * What a dispatcher tells the model about a call it did not run for a reason
 * other than its arguments: the words are here with every other feedback.
 */
export const callText = {
  malformed: (): string => "The tool call had no id or no name.",
  repeatedId: (): string => "The tool call had the id of an earlier call in the same response; it was not run.",
  unknownTool(name: string, names: readonly string[]): string {
    // The name is model text: quoted and clipped before it is echoed back.
    const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
    return `There is no tool named ${shown}. The tools are: ${names.join(", ")}. Call one of them instead.`;
  },
  cutOff(name: string, truncation: string | undefined): string {
    const why = truncation === undefined ? "" : ` (${truncation})`;
    return `Your output was cut off${why} before the arguments for ${name} were complete, so the call was not run. Call ${name} again with complete arguments, shorter if you can.`;
  },
  handlerFailed: (name: string): string =>
    `The tool ${name} failed while running this call, on its own side rather than because of the arguments. It returned no result; do not repeat the call unchanged more than once.`,
};
