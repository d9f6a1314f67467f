/**
 * OpenAI Agents SDK (`@openai/agents`) adapter, with no import of the SDK:
 * the object `strictTool` returns has the shape of the SDK's FunctionTool
 * (type, name, description, parameters, strict, invoke, needsApproval,
 * isEnabled, and the optional fields below), so the codec keeps no run-time
 * dependency on the SDK and any release with that shape takes it (checked
 * against 0.20.0).
 *
 *   const agent = new Agent({ name, tools: [strictTool({ name, description, parameters: zodSchema, execute }).value] });
 *
 * The agent gets the strict wire schema with `strict: true`. The SDK hands
 * `invoke` the model's arguments TEXT, so strictwire's bounded parser sees it
 * (duplicate keys, unsafe numbers) before anything else; a refused call
 * answers with the codec's feedback as the tool result, for the model to
 * correct its next call, and `execute` never runs.
 *
 * The SDK's other tool options are taken and passed on, each hook given the
 * DECODED source value where the SDK would give it the wire (see
 * `AgentToolOptions`); an option the adapter cannot honour that way is
 * refused (`invalid-options`), never dropped.
 */

import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import { MAX_TIMER_MS } from "../kit/http.js";
import type { Codec } from "../public-codec.js";

/** The function call as the SDK records it (the model's wire text in `arguments`). */
export interface AgentToolCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
  readonly [field: string]: unknown;
}

/** What a tool guardrail returns (the SDK's ToolGuardrailFunctionOutput). */
export interface AgentGuardrailOutput {
  readonly outputInfo?: unknown;
  readonly behavior:
    | { readonly type: "allow" }
    | { readonly type: "rejectContent"; readonly message: string }
    | { readonly type: "throwException" };
}

/** What an input guardrail receives: the SDK's data (the call as written) and the decoded value. */
export interface AgentInputGuardrailData<T> {
  readonly context: unknown;
  readonly agent: unknown;
  readonly toolCall: AgentToolCall;
  /** The call's arguments decoded and validated: what `execute` would receive. */
  readonly input: T;
}

export interface AgentOutputGuardrailData<T> extends AgentInputGuardrailData<T> {
  readonly output: unknown;
}

export interface AgentInputGuardrail<T> {
  readonly name: string;
  run(data: AgentInputGuardrailData<T>): Promise<AgentGuardrailOutput>;
}

export interface AgentOutputGuardrail<T> {
  readonly name: string;
  run(data: AgentOutputGuardrailData<T>): Promise<AgentGuardrailOutput>;
}

/** The SDK's call details (ToolCallDetails) with the decoded value, for the error hooks. */
export interface AgentCallDetails<T> {
  readonly toolCall?: AgentToolCall;
  /** The call's arguments decoded (absent when the call did not decode). */
  readonly input?: T;
  readonly [field: string]: unknown;
}

/** The parts of the SDK's FunctionTool strictwire fills in. */
export interface StrictFunctionTool<T> {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    type: "object";
    // biome-ignore lint/suspicious/noExplicitAny: the SDK types parameters as JsonObjectSchema<any>.
    properties: Record<string, any>;
    required: string[];
    additionalProperties: false;
  };
  readonly strict: true;
  invoke(runContext: unknown, input: string, details?: unknown): Promise<unknown>;
  needsApproval(runContext: unknown, input: unknown, callId?: string): Promise<boolean>;
  isEnabled(runContext: unknown, agent: unknown): Promise<boolean>;
  readonly inputGuardrails?: {
    readonly type: "tool_input";
    readonly name: string;
    run(data: { toolCall: AgentToolCall }): Promise<AgentGuardrailOutput>;
  }[];
  readonly outputGuardrails?: {
    readonly type: "tool_output";
    readonly name: string;
    run(data: { toolCall: AgentToolCall; output: unknown }): Promise<AgentGuardrailOutput>;
  }[];
  readonly errorFunction?: ((runContext: unknown, error: unknown, details?: unknown) => unknown) | null;
  readonly timeoutMs?: number;
  readonly timeoutBehavior?: "error_as_result" | "raise_exception";
  readonly timeoutErrorFunction?: (runContext: unknown, error: unknown, details?: unknown) => unknown;
  readonly deferLoading?: boolean;
  readonly providerData?: Record<string, unknown>;
  /** The codec behind the tool, for encoding or tests. */
  readonly codec: Codec<T>;
}

/**
 * The tool's own options; `strictTool` (agents.ts) adds the schema and how to
 * compile it. The SDK's options of the same names, with the decoded value
 * wherever the SDK would give the model's wire value.
 */
export interface AgentToolOptions<T> {
  readonly name: string;
  readonly description: string;
  /** Runs only with arguments strictwire decoded and validated (and the library's own validation passed). */
  readonly execute: (args: T, runContext: unknown, details?: unknown) => unknown;
  /**
   * Whether a call waits for a person's approval: a boolean, or a policy
   * called with the DECODED value (the SDK calls it with its JSON.parse of
   * the wire text; it is decoded first). A call whose arguments do not
   * decode always asks for approval: the policy never sees a wire value,
   * and approval is never skipped because the arguments were bad (the
   * call is then refused with the feedback if approved; the SDK itself
   * asks for approval for arguments that are not JSON).
   */
  readonly needsApproval?: boolean | ((runContext: unknown, input: T, callId?: string) => boolean | Promise<boolean>);
  /** Whether the agent is offered the tool (the SDK's option: a boolean or a predicate; no arguments). */
  readonly isEnabled?: boolean | ((args: { runContext: unknown; agent: unknown }) => boolean | Promise<boolean>);
  /**
   * Run before `execute` with `input`, the decoded value, beside the SDK's
   * `toolCall` (the wire text). A call that does not decode is rejected
   * with decode's feedback without running them (`rejectContent`: the
   * model gets the feedback as the result, as from `invoke`).
   */
  readonly inputGuardrails?: readonly AgentInputGuardrail<T>[];
  /** Run on `execute`'s output with `input`, the decoded value; not run on a refused call's feedback. */
  readonly outputGuardrails?: readonly AgentOutputGuardrail<T>[];
  /**
   * An exception thrown by `execute`, as the tool result: called with the
   * SDK's details plus `input`, the decoded value. null or absent: the
   * exception propagates, as before.
   */
  readonly errorFunction?: ((runContext: unknown, error: unknown, details: AgentCallDetails<T>) => unknown) | null;
  /** The SDK's per-call timeout (the runner enforces it), in milliseconds. */
  readonly timeoutMs?: number;
  readonly timeoutBehavior?: "error_as_result" | "raise_exception";
  /** The timed-out call's result: called with the SDK's details plus `input`, the decoded value. */
  readonly timeoutErrorFunction?: (runContext: unknown, error: unknown, details: AgentCallDetails<T>) => unknown;
  readonly deferLoading?: boolean;
  readonly providerData?: Record<string, unknown>;
}

/** Options the SDK's `tool()` takes that this adapter refuses, and why. */
const REFUSED: Readonly<Record<string, string>> = {
  strict: "strictTool is always strict",
  outputSchema: "the SDK validates a tool's output schema only for tools made by its own tool(); strictTool has none",
  customDataExtractor: "not supported by strictTool yet",
  allowedCallers: "not supported by strictTool yet",
};

/** strictTool's options: the tool's, and the schema and compile options agents.ts reads. */
const KNOWN: ReadonlySet<string> = new Set([
  "name",
  "description",
  "execute",
  "parameters",
  "compile",
  "needsApproval",
  "isEnabled",
  "inputGuardrails",
  "outputGuardrails",
  "errorFunction",
  "timeoutMs",
  "timeoutBehavior",
  "timeoutErrorFunction",
  "deferLoading",
  "providerData",
]);

function optionProblem(options: AgentToolOptions<unknown>): string | undefined {
  for (const key of Object.keys(options)) {
    if ((options as unknown as Record<string, unknown>)[key] === undefined) continue;
    if (Object.hasOwn(REFUSED, key)) return `option ${key} is refused: ${REFUSED[key]}`;
    if (!KNOWN.has(key)) return `option ${key} is not one strictTool knows; it would be dropped`;
  }
  const { timeoutMs, timeoutBehavior } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    return `option timeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}`;
  }
  if (timeoutBehavior !== undefined && timeoutBehavior !== "error_as_result" && timeoutBehavior !== "raise_exception") {
    return 'option timeoutBehavior must be "error_as_result" or "raise_exception"';
  }
  const hooks = ["execute", "errorFunction", "timeoutErrorFunction"] as const;
  for (const key of hooks) {
    const hook = options[key];
    if (hook !== undefined && hook !== null && typeof hook !== "function") return `option ${key} must be a function`;
  }
  for (const key of ["inputGuardrails", "outputGuardrails"] as const) {
    const list = options[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((g) => typeof g?.name !== "string" || typeof g?.run !== "function")) {
      return `option ${key} must be a list of { name, run } guardrails`;
    }
  }
  return undefined;
}

/** The arguments of the SDK's call details, decoded; undefined when there are none or they do not decode. */
function decodedDetails<T>(codec: Codec<T>, details: unknown): AgentCallDetails<T> {
  const base = (typeof details === "object" && details !== null ? details : {}) as AgentCallDetails<T>;
  const text = base.toolCall?.arguments;
  const decoded = typeof text === "string" ? codec.decode(text) : undefined;
  return decoded?.ok === true ? { ...base, input: decoded.value } : base;
}

/**
 * The tool over a codec already made (run time: nothing is compiled here).
 * `strictTool` (agents.ts, on the compile side) compiles a schema first.
 */
export function agentTool<T>(codec: Codec<T>, options: AgentToolOptions<T>): Result<StrictFunctionTool<T>> {
  if (codec.bundle.options.target !== "openai") {
    return fail(
      "invalid-options",
      "",
      `tool ${codec.name} was compiled for the ${codec.bundle.options.target} target; the Agents SDK needs "openai"`,
    );
  }
  const problem = optionProblem(options as AgentToolOptions<unknown>);
  if (problem !== undefined) return fail("invalid-options", "", `tool ${options.name}: ${problem}`);
  const { execute, needsApproval, isEnabled, errorFunction, timeoutErrorFunction } = options;

  const invoke = async (runContext: unknown, input: string, details?: unknown): Promise<unknown> => {
    const decoded = codec.decode(input);
    if (!decoded.ok) return decoded.error.feedback;
    if (typeof errorFunction !== "function") return execute(decoded.value, runContext, details);
    try {
      return await execute(decoded.value, runContext, details);
    } catch (error) {
      const base = typeof details === "object" && details !== null ? details : {};
      return errorFunction(runContext, error, { ...base, input: decoded.value });
    }
  };

  const tool: Record<string, unknown> = {
    type: "function",
    name: options.name,
    description: options.description,
    parameters: codec.wire as StrictFunctionTool<T>["parameters"],
    strict: true,
    codec,
    invoke,
    needsApproval: async (runContext: unknown, input: unknown, callId?: string): Promise<boolean> => {
      if (typeof needsApproval !== "function") return needsApproval === true;
      // The SDK gives its JSON.parse of the wire text (a string when it is not JSON).
      const decoded = codec.decode(input);
      if (!decoded.ok) return true;
      return (await needsApproval(runContext, decoded.value, callId)) === true;
    },
    isEnabled: async (runContext: unknown, agent: unknown): Promise<boolean> =>
      typeof isEnabled === "function" ? (await isEnabled({ runContext, agent })) === true : isEnabled !== false,
  };
  if (options.inputGuardrails !== undefined) {
    tool.inputGuardrails = options.inputGuardrails.map((guardrail) => ({
      type: "tool_input",
      name: guardrail.name,
      run: async (data: { toolCall: AgentToolCall }): Promise<AgentGuardrailOutput> => {
        const decoded = codec.decode(data.toolCall.arguments);
        if (!decoded.ok) {
          return { behavior: { type: "rejectContent", message: decoded.error.feedback }, outputInfo: decoded.error };
        }
        return guardrail.run({ ...(data as Omit<AgentInputGuardrailData<T>, "input">), input: decoded.value });
      },
    }));
  }
  if (options.outputGuardrails !== undefined) {
    tool.outputGuardrails = options.outputGuardrails.map((guardrail) => ({
      type: "tool_output",
      name: guardrail.name,
      run: async (data: { toolCall: AgentToolCall; output: unknown }): Promise<AgentGuardrailOutput> => {
        const decoded = codec.decode(data.toolCall.arguments);
        // A refused call's output is the feedback, not execute's: nothing of the tool's to guard.
        if (!decoded.ok) return { behavior: { type: "allow" } };
        return guardrail.run({ ...(data as Omit<AgentOutputGuardrailData<T>, "input">), input: decoded.value });
      },
    }));
  }
  if (errorFunction !== undefined) {
    // The runner reads it too (for a failure outside invoke), with the SDK's details.
    tool.errorFunction =
      errorFunction === null
        ? null
        : (runContext: unknown, error: unknown, details?: unknown) =>
            errorFunction(runContext, error, decodedDetails(codec, details));
  }
  if (timeoutErrorFunction !== undefined) {
    tool.timeoutErrorFunction = (runContext: unknown, error: unknown, details?: unknown) =>
      timeoutErrorFunction(runContext, error, decodedDetails(codec, details));
  }
  for (const key of ["timeoutMs", "timeoutBehavior", "deferLoading", "providerData"] as const) {
    if (options[key] !== undefined) tool[key] = options[key];
  }
  return ok(tool as unknown as StrictFunctionTool<T>);
}
