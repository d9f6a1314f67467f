/**
 * The arms: one tool, several representations. Every arm is given the same
 * instruction, state, policy and settings; only the tool's parameters, its
 * strict flag and the way its arguments become the contract's value differ.
 */
import {
  type AbsenceSpelling,
  type CodecError,
  compileCodec,
  parseJson,
  type Result,
  type TagSpelling,
} from "@strictwire/codec";
import type { RequestTool } from "@strictwire/codec/providers";
import type { Api, ExchangeApiName } from "./providers.js";
import type { Json, JsonObject, Tool } from "./suite.js";

export type { Api, SentTool } from "./providers.js";

/** The `--api` names the harness documents (each an API's name or earlier spelling; `exchangeApi` takes any). */
export const API_NAMES: readonly Api[] = ["chat", "responses", "anthropic", "gemini"];

export interface ArmDecodeError {
  readonly code: string;
  readonly message: string;
  readonly feedback: string;
}

/** One workflow's tool as an arm sends it, with the way back to the contract's value. */
export interface ArmTool {
  /** What is sent as the tool, whatever the provider's envelope. */
  readonly tool: RequestTool;
  /** Peer converters' normalisers may be asynchronous. */
  decode(argumentsText: string): Result<Json, ArmDecodeError> | Promise<Result<Json, ArmDecodeError>>;
}

export interface Arm {
  readonly name: string;
  readonly summary: string;
  /** Why this arm cannot run against this API, if it cannot. */
  unavailable(api: ExchangeApiName): string | undefined;
  prepare(tool: Tool, api: ExchangeApiName): Result<ArmTool, ArmDecodeError>;
}

const asDecodeError = (e: CodecError): ArmDecodeError => ({ code: e.code, message: e.message, feedback: e.feedback });

interface CodecArmOptions {
  readonly presence?: AbsenceSpelling;
  readonly tags?: TagSpelling;
  readonly factored?: boolean;
  readonly target?: "openai" | "anthropic";
  readonly annotate?: (wire: JsonObject) => JsonObject;
}

function codecArm(name: string, summary: string, options: CodecArmOptions, unavailable: Arm["unavailable"]): Arm {
  return {
    name,
    summary,
    unavailable,
    prepare(tool) {
      const compiled = compileCodec(tool.parameters, {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        target: options.target ?? "openai",
        ...(options.presence !== undefined ? { presence: options.presence } : {}),
        ...(options.tags !== undefined ? { tags: options.tags } : {}),
        ...(options.factored === true ? { factored: true } : {}),
      });
      if (!compiled.ok) return { ok: false, error: asDecodeError(compiled.error) };
      const codec = compiled.value;
      const wire = structuredClone(codec.wire) as JsonObject;
      return {
        ok: true,
        value: {
          tool: { ...described(tool), parameters: options.annotate ? options.annotate(wire) : wire, strict: true },
          decode: (text) => {
            const r = codec.decode(text);
            return r.ok ? { ok: true, value: r.value as Json } : { ok: false, error: asDecodeError(r.error) };
          },
        },
      };
    },
  };
}

const described = (tool: Tool): { name: string; description?: string } =>
  tool.description !== undefined ? { name: tool.name, description: tool.description } : { name: tool.name };

const everywhere = (): undefined => undefined;

/** The original schema, strict off; the arguments go through the bounded parser and the contract check. */
const control: Arm = {
  name: "control",
  summary: "original schema, strict: false, strictwire's contract validation afterwards",
  unavailable: everywhere,
  prepare(tool) {
    const compiled = compileCodec(tool.parameters, { name: tool.name });
    if (!compiled.ok) return { ok: false, error: asDecodeError(compiled.error) };
    const codec = compiled.value;
    return {
      ok: true,
      value: {
        tool: { ...described(tool), parameters: structuredClone(tool.parameters), strict: false },
        decode: (text) => {
          const parsed = parseJson(text);
          if (!parsed.ok) return { ok: false, error: asDecodeError(parsed.error) };
          const valid = codec.validate(parsed.value);
          return valid.ok ? { ok: true, value: valid.value as Json } : { ok: false, error: asDecodeError(valid.error) };
        },
      },
    };
  },
};

export const PRESENCE_NOTE =
  'Presence of this member: {"state":"absent"} leaves the stored value unchanged; {"state":"present","value":null} clears it; {"state":"present","value":...} sets it.';

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

function isAbsentTag(node: Json | undefined, defs: JsonObject | undefined): boolean {
  if (!isObject(node)) return false;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/") && defs !== undefined)
    return isAbsentTag(defs[node.$ref.slice("#/$defs/".length)], undefined);
  const state = isObject(node.properties) ? node.properties.state : undefined;
  return isObject(state) && state.const === "absent";
}

/**
 * The "described presence" lever: a description on every presence choice
 * saying what absent and null mean. Only `description` keys are added, so the
 * schema accepts exactly the same values and decode is the codec's own.
 */
export function describePresence(wire: JsonObject): JsonObject {
  const defs = isObject(wire.$defs) ? wire.$defs : undefined;
  const walk = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v);
    const branches = node.anyOf;
    if (Array.isArray(branches) && branches.some((b) => isAbsentTag(b, defs))) {
      out.description = typeof node.description === "string" ? `${node.description} ${PRESENCE_NOTE}` : PRESENCE_NOTE;
    }
    return out;
  };
  return walk(wire) as JsonObject;
}

const anthropicOnly = (api: ExchangeApiName): string | undefined =>
  api === "anthropic" ? undefined : "provider-native optional members exist only for --api anthropic";

export const BUILTIN_ARMS: readonly Arm[] = [
  control,
  codecArm("tagged", "strictwire wire, presence tags", { presence: "tagged" }, everywhere),
  codecArm("compact", "strictwire wire, compact presence", { presence: "compact" }, everywhere),
  codecArm(
    "minimal",
    'strictwire wire, presence tags spelled minimally ({} absent, {"value": …} present)',
    { presence: "tagged", tags: "minimal" },
    everywhere,
  ),
  codecArm("factored", "strictwire wire, presence tags, factored", { presence: "tagged", factored: true }, everywhere),
  codecArm(
    "tagged-described",
    "strictwire wire, presence tags described (absent keeps, null clears)",
    { presence: "tagged", annotate: describePresence },
    everywhere,
  ),
  codecArm(
    "native",
    "strictwire wire for Anthropic: optional members stay optional",
    { target: "anthropic" },
    anthropicOnly,
  ),
];

export const DEFAULT_ARMS = ["control", "tagged", "compact", "minimal", "factored", "tagged-described"] as const;
