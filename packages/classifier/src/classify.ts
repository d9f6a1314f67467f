/**
 * Classify one tool call into the state a dispatcher would meet, with the
 * reason and the repair. Everything here is pure.
 */
import { argumentsText, PARSE_CODES, type ParseLimits } from "@strictwire/codec";
import { type ArgumentsError, type ArgumentsErrorCode, parseArguments } from "./arguments.js";
import { matchCodec, type ToolCodec } from "./codecs.js";
import { renderPath, renderSteps } from "./paths.js";
import type { DeclaredTool, ToolCall } from "./shapes.js";
import { checkSchema } from "./violations.js";

/** In order of precedence. schema-invalid is strictwire's addition to the seed's six. */
export const STATES = [
  "arguments-truncated",
  "arguments-unparseable",
  "unknown-tool",
  "schema-invalid",
  "arguments-violate-schema",
  "dispatchable-unconstrained",
  "dispatchable",
] as const;

export type CallState = (typeof STATES)[number];

/** The states your dispatcher cannot use: they make the exit code 1. */
export const FINDINGS: ReadonlySet<CallState> = new Set<CallState>([
  "arguments-unparseable",
  "unknown-tool",
  "schema-invalid",
  "arguments-violate-schema",
]);

export interface Classification {
  readonly state: CallState;
  readonly detail: string;
  /** Why the arguments did not parse, when they did not. */
  readonly cause?: ArgumentsErrorCode;
  /** Whether the tool named was declared with strict: true, when it was declared. */
  readonly strict?: boolean;
}

export interface ClassifyOptions {
  /** Bundles whose wire schemas may be the declared parameters. */
  readonly codecs?: readonly ToolCodec[] | undefined;
  readonly limits?: Partial<ParseLimits> | undefined;
}

export type ToolMap = ReadonlyMap<string, DeclaredTool> | Readonly<Record<string, DeclaredTool>>;

// A detail lists this many problems; the count before it still says how many.
const LISTED_PROBLEMS = 20;

function listProblems(problems: readonly string[]): string {
  const listed = problems.slice(0, LISTED_PROBLEMS).join("; ");
  const more = problems.length - LISTED_PROBLEMS;
  return more > 0 ? `${listed}; and ${more} more` : listed;
}

function where(error: ArgumentsError): string {
  return error.path === "" ? "" : ` at ${renderPath("arguments", error.path)}`;
}

/** Faults only a bounded, duplicate-rejecting parser sees; JSON.parse would carry on. */
function refusedDetail(error: ArgumentsError): string {
  const said = `${error.code}${where(error)}: ${error.message}`;
  switch (error.code) {
    case "duplicate-key":
      return (
        `the arguments string names the same key more than once (${said}). JSON.parse keeps the last copy ` +
        "without a word, so which value the handler gets depends on the parser it happens to use"
      );
    case "input-too-large":
    case "too-deep":
    case "too-many-nodes":
      return `the arguments string is beyond the parser's limits (${said}), so a bounded parser refuses it before any handler sees it`;
    case "unsafe-number":
      return `the arguments string holds a number JavaScript cannot represent exactly (${said}), so JSON.parse would hand the handler a different number`;
    default:
      return `the arguments string is refused by the bounded parser (${said})`;
  }
}

// Reasons that mean the output ran into a token limit; any other cut (a
// content filter) is named as the provider gave it.
const CEILINGS = new Set(["max_output_tokens", "length", "max_tokens", "model_context_window_exceeded"]);

function cutOffBy(truncated: boolean | string): string {
  return truncated === true || (typeof truncated === "string" && CEILINGS.has(truncated))
    ? "stopped on the output ceiling"
    : `was cut off (${truncated})`;
}

function unparsed(error: ArgumentsError, truncated: boolean | string): Classification {
  const cause = error.code;
  if (cause !== "invalid-json" && cause !== "absent" && cause !== "not-an-object") {
    return { state: "arguments-unparseable", detail: refusedDetail(error), cause };
  }
  if (truncated !== false && truncated !== "") {
    return {
      state: "arguments-truncated",
      detail:
        `the arguments string does not parse (${error.message}) and the response ${cutOffBy(truncated)}, ` +
        "so it was cut mid-write rather than written wrongly",
      cause,
    };
  }
  return {
    state: "arguments-unparseable",
    detail: `the arguments string does not parse (${error.message}) and the response completed, so nothing was constraining the grammar`,
    cause,
  };
}

function lookup(tools: ToolMap | null | undefined, name: string): DeclaredTool | undefined {
  if (!tools) return undefined;
  if (tools instanceof Map) return tools.get(name);
  const record = tools as Readonly<Record<string, DeclaredTool>>;
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/** What decoding with the bundle says, or undefined when the value meets the original contract. */
function decodeVerdict(raw: unknown, value: Record<string, unknown>, codec: ToolCodec): Classification | undefined {
  // The text itself when there is one, so the bundle's own parse limits apply as they will at dispatch; an
  // object (Anthropic's, Gemini's input) written back to text, as the dispatcher decodes it.
  const decoded = codec.decode(
    typeof raw === "string" && raw.trim() !== "" ? raw : raw === value ? argumentsText(value) : value,
  );
  if (decoded.ok) return undefined;
  const { error } = decoded;
  const said = `${error.code}${error.path === "" ? "" : ` at ${renderPath("arguments", error.path)}`}: ${error.message}`;
  if (PARSE_CODES.has(error.code)) {
    return {
      state: "arguments-unparseable",
      detail: `the decoder of bundle '${codec.name}' refuses the arguments text (${said}), as a dispatcher using that bundle would`,
      cause: error.code,
    };
  }
  if (error.code === "contract-violation") {
    const issues = error.issues?.length ? error.issues : [{ path: error.path, message: error.message }];
    // The codec's steps where it gives them: they tell an index from a key named "0".
    const problems = issues.map(
      (issue) =>
        `${"at" in issue && issue.at !== undefined ? renderSteps("arguments", issue.at) : renderPath("arguments", issue.path)}: ${issue.message}`,
    );
    return {
      state: "arguments-violate-schema",
      detail:
        `the arguments match the wire schema, and decoded with bundle '${codec.name}' they break the original ` +
        `contract in ${problems.length} place(s): ${listProblems(problems)}`,
    };
  }
  return {
    state: "arguments-violate-schema",
    detail: `the arguments match the wire schema but do not decode with bundle '${codec.name}' (${said})`,
  };
}

/**
 * Classify one function call. The order matters: a call whose arguments were
 * cut off belongs to the truncation note, and saying so before reporting a
 * parse error keeps the reader from tuning a tool schema to fix an output
 * ceiling.
 */
export function classify(
  call: ToolCall | null | undefined,
  tools: ToolMap | null | undefined,
  /** Whether the output was cut off; a string is the provider's reason (see `truncation`). */
  truncated: boolean | string = false,
  options: ClassifyOptions = {},
): Classification {
  const name = String(call?.name ?? "");
  const parsed = parseArguments(call?.arguments, options.limits);
  const tool = lookup(tools, name);
  if (!parsed.ok) {
    const verdict = unparsed(parsed.error, truncated);
    return tool ? { ...verdict, strict: tool.strict } : verdict;
  }
  if (!tool) {
    return {
      state: "unknown-tool",
      detail:
        `the arguments parse cleanly and no tool named '${name}' was declared on this response. ` +
        "A dispatcher that indexes a handler map by name raises here, not at the parse.",
    };
  }

  const verdict = judgeDeclared(call, parsed.value, name, tool, options);
  return { ...verdict, strict: tool.strict };
}

function judgeDeclared(
  call: ToolCall | null | undefined,
  value: Record<string, unknown>,
  name: string,
  tool: DeclaredTool,
  options: ClassifyOptions,
): Classification {
  const check = checkSchema(value, tool.parameters);
  if (check.kind === "invalid-schema") {
    return {
      state: "schema-invalid",
      detail:
        `the arguments parse cleanly, but the parameters schema declared for '${name}' cannot be compiled ` +
        `(${check.message}), so nothing can check a call against it`,
    };
  }
  if (check.kind === "violations") {
    return {
      state: "arguments-violate-schema",
      detail: `the arguments parse cleanly and break the declared schema in ${check.problems.length} place(s): ${listProblems(check.problems)}`,
    };
  }

  const codec = options.codecs ? matchCodec(tool.parameters, options.codecs) : undefined;
  const verdict = codec ? decodeVerdict(call?.arguments, value, codec) : undefined;
  if (verdict !== undefined) return verdict;

  if (!tool.strict) {
    return {
      state: "dispatchable-unconstrained",
      detail:
        "this call matches the schema, but the tool was declared without strict: true, so nothing guaranteed that it would",
    };
  }
  if (codec) {
    return {
      state: "dispatchable",
      detail: `parses, matches the declared wire schema and decodes to a value that meets the original contract of bundle '${codec.name}'`,
    };
  }
  return { state: "dispatchable", detail: "parses and matches the declared schema" };
}

function causeLines(cause: ArgumentsErrorCode | undefined): string[] {
  switch (cause) {
    case "duplicate-key":
      return [
        "Parse arguments with a parser that rejects duplicate keys, and return its error to the model as the tool " +
          "result; never let last-one-wins pick the value your handler acts on.",
      ];
    case "input-too-large":
    case "too-deep":
    case "too-many-nodes":
      return [
        "Keep a bounded parser in front of the handler and return its refusal to the model. If calls this large " +
          "are legitimate, raise the limits on purpose rather than parse without any.",
      ];
    case "unsafe-number":
      return ["Declare large identifiers and amounts as strings in the schema, so no parser rounds them."];
    default:
      return [];
  }
}

// For a tool already declared strict: the advice to set it would be wrong.
const STRICT_NOT_ENOUGH =
  "The tool was declared with strict: true and this still got through, so the provider's strict mode does not " +
  "enforce all of this schema: compile it for the provider (strictwire compile --target) and decode with the bundle.";

/**
 * The repair for one state; for a parse refusal, its cause adds a line.
 * `strict` is whether the tool was declared with strict: true, so that a tool
 * which has it is not told to set it.
 */
export function repairLines(state: string, name?: string, cause?: ArgumentsErrorCode, strict = false): string[] {
  const tool = name || "this tool";
  if (state === "arguments-violate-schema") {
    return [
      "Validate arguments against the tool schema before dispatch, and feed the validation error back to the model " +
        "as the tool result so it can correct itself. A crashed turn teaches the model nothing; a returned error " +
        "usually fixes the next call.",
      strict
        ? STRICT_NOT_ENOUGH
        : `Set strict: true on tool ${tool}, with additionalProperties: false and every parameter listed in required. ` +
          "Without it the schema is a suggestion.",
    ];
  }
  if (state === "arguments-unparseable") {
    return [
      "Wrap every argument parse in try/catch and return the parse error to the model as the tool result rather " +
        "than raising through the turn.",
      ...(strict ? [] : ["Set strict: true on the tool so constrained decoding holds the grammar in the first place."]),
      ...causeLines(cause),
    ];
  }
  if (state === "arguments-truncated") {
    return [
      "Not a schema problem. The output ceiling cut the argument string mid-write, so raise it and check the " +
        "response status before touching any tool call.",
    ];
  }
  if (state === "unknown-tool") {
    return [
      "Handle an unknown tool name explicitly: return a tool result saying the tool does not exist. A thrown lookup " +
        "error out of the handler map ends the turn and loses the conversation state.",
      "Check that the tool list sent on this call matches the handler map. A tool renamed on one side only produces " +
        "exactly this.",
    ];
  }
  if (state === "schema-invalid") {
    return [
      `Fix the parameters schema of tool ${tool} so that a JSON Schema validator compiles it, and compile it in ` +
        "your own tests before it is sent. A schema nothing can compile checks nothing.",
    ];
  }
  if (state === "dispatchable-unconstrained") {
    return [
      "This call was fine. Set strict: true on the tool anyway, because nothing about this response promised it would be.",
    ];
  }
  return [];
}
