/**
 * The converters people use today to get a strict tool schema, each with the
 * function that maps the model's arguments back (its "normaliser"):
 *
 * - @openai/agents-core 0.20: `tool({ parameters, strict: true })`. For a plain
 *   JSON schema it calls prepareOpenAIStrictToolSchema (utils/strictToolSchema):
 *   every property becomes required, an optional property that does not admit
 *   null is wrapped in anyOf [X, null]; its normaliser (normalizeInput) turns
 *   null back into "absent" for those wrapped properties only. The normaliser
 *   is reached through the runner's own entry point, prepareFunctionToolInput
 *   (@openai/agents-core/utils/internal), which runs the tool's parser.
 * - @mastra/schema-compat 1.3, two paths:
 *   - prepareJsonSchemaForOpenAIStrictMode (every property required,
 *     additionalProperties false, unsupported keywords dropped or folded into
 *     descriptions; optional members are NOT made nullable), with the
 *     null normaliser wrapSchemaWithNullTransform (null -> undefined for members
 *     the original schema does not require);
 *   - the tool path, OpenAISchemaCompatLayer.processToCompatSchema: optional
 *     members become required and nullable (listed in "x-optional"); its
 *     validate() turns null back into undefined for those members, then
 *     validates against the original schema.
 * - strictwire: compile, with encode as the documented mapping and decode as
 *   the normaliser (run separately, in comparison.ts).
 */

/**
 * The few exports used here, typed here. Both packages are loaded on first
 * use (they are large), through a computed specifier, so the workspace
 * type-check does not follow their declaration graphs (which reach
 * eventsource and the AI SDK's types).
 */
interface AgentsCore {
  tool(options: Record<string, unknown>): { parameters: unknown; invoke: unknown; needsApproval: unknown };
}
interface AgentsInternal {
  prepareFunctionToolInput(
    tool: unknown,
    input: string,
  ): { result: { success: true; value: unknown } | { success: false; error: unknown } } | undefined;
}
interface Mastra {
  OpenAISchemaCompatLayer: new (model: unknown) => { processToCompatSchema(schema: unknown): unknown };
  prepareJsonSchemaForOpenAIStrictMode(schema: unknown): unknown;
  toStandardSchema(schema: unknown): unknown;
  wrapSchemaWithNullTransform(schema: unknown): unknown;
}

const load = (specifier: string): Promise<unknown> => import(specifier);

export type Normalise = (wireValue: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; reason: string }>;

/** The converter's decode path, synchronous, from the model's argument text (what the decode benchmark times). */
export type DecodeText = (text: string) => { ok: true; value: unknown } | { ok: false; reason: string };

export type Conversion =
  | {
      readonly converted: true;
      readonly wire: unknown;
      readonly normalise: Normalise;
      readonly decodeText: DecodeText;
    }
  | { readonly converted: false; readonly reason: string };

export interface Converter {
  readonly name: string;
  convert(schema: unknown): Conversion;
}

interface StandardLike {
  "~standard": {
    validate(value: unknown): unknown;
    jsonSchema: { input(options: { target: string }): unknown };
  };
}

function message(error: unknown): string {
  const m = error instanceof Error ? error.message : String(error);
  return m.replace(/\s+/g, " ").slice(0, 200);
}

async function standardResult(result: unknown): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
  return standardOutcome(await result);
}

function standardOutcome(result: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (result instanceof Promise) return { ok: false, reason: "asynchronous validation" };
  const r = result as { value?: unknown; issues?: { message: string }[] };
  if (r.issues !== undefined) return { ok: false, reason: `rejected: ${r.issues[0]?.message ?? "invalid"}` };
  return { ok: true, value: r.value };
}

/** The converters, their packages loaded on first use (they are large). */
export async function loadConverters(): Promise<Converter[]> {
  const mastra = (await load("@mastra/schema-compat")) as Mastra;
  const { tool } = (await load("@openai/agents-core")) as AgentsCore;
  const { prepareFunctionToolInput } = (await load("@openai/agents-core/utils/internal")) as AgentsInternal;
  const agentsCore: Converter = {
    name: "@openai/agents-core tool({strict: true})",
    convert(schema) {
      try {
        const t = tool({
          name: "tool",
          description: "",
          parameters: structuredClone(schema),
          strict: true,
          execute: async () => "",
        });
        // The runner's own path: JSON.parse, then normalizeInput (null back to absent). A plain
        // JSON-schema tool gets no validation here (only Zod / Standard Schema parameters are validated).
        const decodeText: DecodeText = (text) => {
          const prepared = prepareFunctionToolInput(t, text);
          if (prepared === undefined) return { ok: false, reason: "no input parser registered" };
          const r = prepared.result;
          return r.success ? { ok: true, value: r.value } : { ok: false, reason: `rejected: ${message(r.error)}` };
        };
        return {
          converted: true,
          wire: t.parameters,
          normalise: async (wireValue) => decodeText(JSON.stringify(wireValue)),
          decodeText,
        };
      } catch (error) {
        return { converted: false, reason: message(error) };
      }
    },
  };

  const MODEL = { provider: "openai.responses", modelId: "gpt-4.1", supportsStructuredOutputs: true };

  const mastraPrepare: Converter = {
    name: "@mastra/schema-compat prepareJsonSchemaForOpenAIStrictMode",
    convert(schema) {
      try {
        const wire = mastra.prepareJsonSchemaForOpenAIStrictMode(structuredClone(schema));
        const wrapped = mastra.wrapSchemaWithNullTransform(
          mastra.toStandardSchema(structuredClone(schema)),
        ) as StandardLike;
        return {
          converted: true,
          wire,
          normalise: (wireValue) => standardResult(wrapped["~standard"].validate(structuredClone(wireValue))),
          decodeText: (text) => standardOutcome(wrapped["~standard"].validate(JSON.parse(text))),
        };
      } catch (error) {
        return { converted: false, reason: message(error) };
      }
    },
  };

  const mastraLayer: Converter = {
    name: "@mastra/schema-compat OpenAISchemaCompatLayer",
    convert(schema) {
      try {
        const layer = new mastra.OpenAISchemaCompatLayer(MODEL);
        const compat = layer.processToCompatSchema(mastra.toStandardSchema(structuredClone(schema))) as StandardLike;
        const wire = compat["~standard"].jsonSchema.input({ target: "draft-07" });
        return {
          converted: true,
          wire,
          normalise: (wireValue) => standardResult(compat["~standard"].validate(structuredClone(wireValue))),
          decodeText: (text) => standardOutcome(compat["~standard"].validate(JSON.parse(text))),
        };
      } catch (error) {
        return { converted: false, reason: message(error) };
      }
    },
  };

  return [agentsCore, mastraPrepare, mastraLayer];
}
