/**
 * A dispatcher over a tool set: take a provider response, run every tool call
 * through its guard (concurrently), and give back the tool results in that
 * provider's own message format, call ids matched and call order kept.
 *
 * Nothing the model sends makes it throw: an unknown tool, arguments that
 * break the contract, arguments cut off by the output limit and a handler that
 * throws each become a tool result the model can act on. Only a programming
 * mistake in the tool set itself (a missing handler, a codec under the wrong
 * name) throws, when the dispatcher is created.
 *
 * Like guardedCall, it checks shape, not permission: it does not authenticate,
 * authorise or sandbox anything.
 */
import type { AnswerNaming } from "../answer/answer.js";
import { outputFormat } from "../answer/outputs.js";
import type { RawArguments } from "../codec.js";
import { type CodecError, isStackOverflow, ok, type Result } from "../errors.js";
import { callText, fail } from "../feedback/format.js";
import { isPlainObject } from "../json.js";
import { type AnthropicMessageLike, type AnthropicToolResultMessage, anthropic } from "../providers/anthropic.js";
import type { AnsweredCall, ExtractedCalls, ProviderApiModule, RawCall, ToolOptions } from "../providers/api.js";
import {
  type GeminiFunctionResponseContent,
  type GeminiResponseLike,
  type GeminiTools,
  type GeminiToolsOptions,
  gemini,
  geminiTools,
} from "../providers/gemini.js";
import {
  type OutputApi,
  type OutputFormats,
  type ProviderApi,
  type ProviderResponses,
  providerModule,
  type ToolDefinitions,
  type ToolResults,
  toolDefinition,
} from "../providers/lookup.js";
import { type ChatCompletionLike, type ChatToolMessage, openaiChat } from "../providers/openai-chat.js";
import {
  openaiResponses,
  type ResponsesFunctionCallOutput,
  type ResponsesResponseLike,
} from "../providers/openai-responses.js";
import type { Codec } from "../public-codec.js";
import { describeHandlerError, type GuardOptions, runHandler, type ToolCallInfo, type ToolHandler } from "./guard.js";

/** Codecs by tool name; each key must be its codec's name. */
export type ToolCodecs = Readonly<Record<string, Codec<unknown>>>;

/** The original value type a codec decodes to. */
export type CodecValue<C> = C extends Codec<infer T> ? T : never;

/** One handler per tool, typed by its codec. */
export type ToolHandlers<C extends ToolCodecs> = { readonly [K in keyof C]: ToolHandler<CodecValue<C[K]>> };

export type DispatchOptions = GuardOptions;

/** What became of one call. `output` is the text sent back as its tool result. */
export type CallOutcome =
  /** The handler ran; `result` is what it returned, `output` its text. */
  | { readonly ok: true; readonly kind: "ok"; readonly output: string; readonly result: unknown }
  | { readonly ok: false; readonly kind: "rejected"; readonly output: string; readonly error: CodecError }
  | { readonly ok: false; readonly kind: "handler-error"; readonly output: string; readonly error: unknown }
  | { readonly ok: false; readonly kind: "unknown-tool"; readonly output: string }
  /** The response was cut off inside these arguments; the handler did not run. */
  | { readonly ok: false; readonly kind: "truncated"; readonly output: string; readonly error?: CodecError }
  /**
   * The response gave the call no id (or no name), or the id of an earlier call of the response: it
   * cannot be answered, so no message carries it, and its handler did not run.
   */
  | { readonly ok: false; readonly kind: "malformed"; readonly output: string };

export type CallReport = { readonly id: string; readonly name: string } & CallOutcome;

export interface Dispatched<M> {
  /** The tool-result messages to append to the next request, in call order. */
  readonly messages: M[];
  /** One report per call, in call order: for logs and metrics. */
  readonly calls: readonly CallReport[];
  /** Why the response was cut off ("max_output_tokens", "length", "max_tokens"), when it was; "unreadable" when it could not be read. */
  readonly truncation: string | undefined;
}

export function createDispatcher<const C extends ToolCodecs>(
  codecs: C,
  handlers: ToolHandlers<C>,
  options: DispatchOptions = {},
): Dispatcher<C> {
  return new Dispatcher(codecs, handlers, options);
}

export class Dispatcher<C extends ToolCodecs> {
  private readonly byName: ReadonlyMap<string, { codec: Codec<unknown>; handler: ToolHandler<unknown> }>;

  constructor(
    readonly codecs: C,
    handlers: ToolHandlers<C>,
    private readonly options: DispatchOptions = {},
  ) {
    const byName = new Map<string, { codec: Codec<unknown>; handler: ToolHandler<unknown> }>();
    for (const [key, codec] of Object.entries(codecs)) {
      // The model calls a tool by the name in its definition, which is the codec's.
      if (codec.name !== key) throw new TypeError(`tool set key ${JSON.stringify(key)} holds codec ${codec.name}`);
      const handler = (handlers as Readonly<Record<string, unknown>>)[key];
      if (typeof handler !== "function") throw new TypeError(`no handler for tool ${key}`);
      byName.set(key, { codec, handler: handler as ToolHandler<unknown> });
    }
    this.byName = byName;
  }

  /** Tool names, in the order the tool set lists them. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  // ---- definitions for the request ----------------------------------------

  /**
   * Every tool's definition for one API, in tool-set order. A tool compiled
   * for another provider's target is refused: its wire may hold what this API
   * does not accept. For Gemini these are bare declarations, and a request
   * carrying only them is not strict: send `geminiTools()` instead.
   */
  tools<A extends ProviderApi>(api: A, options: ToolOptions = {}): Result<ToolDefinitions[A][]> {
    const out: ToolDefinitions[A][] = [];
    for (const { codec } of this.byName.values()) {
      const definition = toolDefinition(codec.bundle, api, options);
      if (!definition.ok) return definition;
      out.push(definition.value);
    }
    return ok(out);
  }

  /**
   * Gemini: `{ tools: [{ functionDeclarations }], toolConfig }` with
   * `functionCallingConfig.mode` "VALIDATED", the setting that makes Gemini
   * hold calls to the declared schemas; spread it into the request.
   */
  geminiTools(options: GeminiToolsOptions = {}): Result<GeminiTools> {
    return geminiTools(
      [...this.byName.values()].map(({ codec }) => codec.bundle),
      options,
    );
  }

  /**
   * The answer format (structured outputs) of a request that also sends these
   * tools: `outputFormat`'s, refused (`invalid-options`) for a codec compiled
   * for another target than the tools'. Whether the tools and the answer fit
   * the per-request caps together is a build-time question (measuring a wire
   * is compile-side code): `checkToolSet(tools, target, { output })`, or
   * `strictwire check … --answer`.
   */
  outputFormat<A extends OutputApi>(codec: Codec<unknown>, api: A, naming?: AnswerNaming): Result<OutputFormats[A]> {
    const target = codec.bundle.options.target;
    for (const { codec: tool } of this.byName.values()) {
      if (tool.bundle.options.target !== target) {
        return fail(
          "invalid-options",
          "",
          `the answer format ${codec.name} was compiled for ${target}, the tool ${tool.name} for ${tool.bundle.options.target}: one request has one target`,
        );
      }
    }
    return outputFormat(codec, api, naming);
  }

  // ---- responses in, tool results out --------------------------------------

  /**
   * Any provider API's response (by its name in the registry): the tool
   * results, in that API's own message format, to add to the next request.
   */
  async answer<A extends ProviderApi>(api: A, response: ProviderResponses[A]): Promise<Dispatched<ToolResults[A]>> {
    const module = providerModule(api) as unknown as ProviderApiModule<
      A,
      unknown,
      ProviderResponses[A],
      ToolResults[A]
    >;
    return this.dispatch(module.calls(response), (calls) => module.results(calls));
  }

  /** OpenAI Responses: `function_call_output` items to add to the next request's `input`. */
  async responses(response: ResponsesResponseLike): Promise<Dispatched<ResponsesFunctionCallOutput>> {
    return this.dispatch(openaiResponses.calls(response), openaiResponses.results);
  }

  /** OpenAI Chat Completions: `tool` messages to append after the assistant message. */
  async chat(completion: ChatCompletionLike): Promise<Dispatched<ChatToolMessage>> {
    return this.dispatch(openaiChat.calls(completion), openaiChat.results);
  }

  /** Anthropic Messages: one user message of `tool_result` blocks (none when there were no calls). */
  async anthropic(message: AnthropicMessageLike): Promise<Dispatched<AnthropicToolResultMessage>> {
    return this.dispatch(anthropic.calls(message), anthropic.results);
  }

  /**
   * Gemini generateContent: one user turn of `functionResponse` parts (none
   * when there were no calls), to append after the model's turn. A failed
   * call answers under `error`, a successful one under `output`.
   */
  async gemini(response: GeminiResponseLike): Promise<Dispatched<GeminiFunctionResponseContent>> {
    return this.dispatch(gemini.calls(response), gemini.results);
  }

  /** One call, outside any provider response: the same checks, one report. */
  async call(name: string, raw: RawArguments, id = ""): Promise<CallReport> {
    return this.run({ id, name, arguments: raw, cutOff: false }, undefined);
  }

  // ---- internals -----------------------------------------------------------

  private async dispatch<M>(
    extracted: ExtractedCalls,
    toMessages: (answerable: readonly AnsweredCall[]) => M[],
  ): Promise<Dispatched<M>> {
    // A call id given twice (a replayed item): a result answers by id, so only the first call under it is run
    // and answered, as the stream readers refuse the later one. An empty id (Gemini's) names no call.
    const ids = new Set<string>();
    const repeated = extracted.calls.map((c) => {
      if (c.id === undefined || c.id === "") return false;
      if (ids.has(c.id)) return true;
      ids.add(c.id);
      return false;
    });
    // Concurrently: calls in one turn are independent by the providers' own contract.
    const calls = await Promise.all(
      extracted.calls.map(
        (c, i): Promise<CallReport> =>
          repeated[i] === true
            ? Promise.resolve({
                id: c.id ?? "",
                name: c.name ?? "",
                ok: false,
                kind: "malformed",
                output: callText.repeatedId(),
              })
            : this.run(c, extracted.truncation),
      ),
    );
    const answerable = calls.filter((c) => c.kind !== "malformed");
    return { messages: toMessages(answerable), calls, truncation: extracted.truncation };
  }

  private async run(raw: RawCall, truncation: string | undefined): Promise<CallReport> {
    const id = raw.id ?? "";
    const name = raw.name ?? "";
    if (raw.id === undefined || raw.name === undefined) {
      return { id, name, ok: false, kind: "malformed", output: callText.malformed() };
    }
    const tool = this.byName.get(name);
    if (tool === undefined) return { id, name, ok: false, kind: "unknown-tool", output: this.unknownTool(name) };
    if (raw.cutOff) return { id, name, ok: false, kind: "truncated", output: cutOffText(name, truncation) };

    const written = writtenArguments(raw.arguments);
    const decoded = written === UNREADABLE ? unreadableArguments() : tool.codec.decode(written, this.options.decode);
    if (!decoded.ok) {
      // Arguments that do not parse in a cut-off response were cut, not miswritten.
      if (truncation !== undefined && decoded.error.code === "invalid-json") {
        return { id, name, ok: false, kind: "truncated", output: cutOffText(name, truncation), error: decoded.error };
      }
      return { id, name, ok: false, kind: "rejected", output: decoded.error.feedback, error: decoded.error };
    }
    const info: ToolCallInfo = { id, name };
    const result = await runHandler(tool.handler, decoded.value, info, this.options);
    if (!result.ok) return { id, name, ...result };
    const text = toolText(result.output);
    if (text === undefined) {
      const error = new TypeError(`the ${name} handler returned a value that is not JSON`);
      return {
        id,
        name,
        ok: false,
        kind: "handler-error",
        output: describeHandlerError(error, info, this.options),
        error,
      };
    }
    return { id, name, ok: true, kind: "ok", output: text, result: result.output };
  }

  private unknownTool(name: string): string {
    return callText.unknownTool(name, this.names);
  }
}

/**
 * A call's arguments as the dispatcher decodes them: text as it came, and an
 * object as its JSON text (the classifier judges them the same way). Anthropic,
 * Gemini and Bedrock give a call's input
 * as an object, which the SDK's JSON.parse built: written back to text it is
 * held to the byte limit and refused for a lone surrogate as a text is (a
 * parsed value is measured for nodes and depth only). A repeated member name
 * was merged by that parse: nothing here can see it. A value nested deeper
 * than JSON.stringify's stack is decoded as it is, which refuses it; one whose
 * reading throws (a getter, a proxy) is given as it is here, and the
 * dispatcher refuses it (decode would throw reading it).
 */
export function argumentsText(raw: RawArguments): RawArguments {
  const written = writtenArguments(raw);
  return written === UNREADABLE ? raw : written;
}

/** An input the response gave that cannot be read: a getter or a proxy in a crafted or wrapped response. */
const UNREADABLE: unique symbol = Symbol("unreadable");

/** argumentsText's value, or UNREADABLE where reading the object throws (decode would throw on it too). */
function writtenArguments(raw: RawArguments): RawArguments | typeof UNREADABLE {
  try {
    // Only what JSON.parse builds: anything else is decoded as it is, and refused as decode refuses it.
    if (!isPlainObject(raw) || ![Object.prototype, null].includes(Object.getPrototypeOf(raw))) return raw;
    return JSON.stringify(raw);
  } catch (error) {
    // Nested past JSON.stringify's stack: decode measures it and refuses it as too deep.
    return isStackOverflow(error) ? raw : UNREADABLE;
  }
}

/** The refusal of arguments that cannot be read, as decode refuses a value that is not JSON data. */
function unreadableArguments(): { readonly ok: false; readonly error: CodecError } {
  return fail(
    "invalid-json",
    "",
    "the call's arguments could not be read (a property that throws): they are not JSON data",
  );
}

function cutOffText(name: string, truncation: string | undefined): string {
  return callText.cutOff(name, truncation);
}

/** A handler's result as tool-result text: strings as they are, anything else as JSON. */
function toolText(output: unknown): string | undefined {
  if (typeof output === "string") return output;
  if (output === undefined) return "";
  try {
    return JSON.stringify(output) ?? undefined;
  } catch {
    return undefined;
  }
}
