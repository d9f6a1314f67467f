/**
 * The provider APIs by name, read off the registry (registry.ts: one line per
 * API): every name type and lookup follows it, so a new API is one module and
 * one registry line.
 */
import type { Result } from "../errors.js";
import { isPlainObject } from "../json.js";
import type { CompiledTool } from "../targets/profile.js";
import type { AnswerSlot, ExtractedCalls, ProviderApiModule, ToolOptions } from "./api.js";
import * as registry from "./registry.js";
import { checkedTool, NO_CALLS, wholeCalls } from "./shared.js";

type Registry = typeof registry;

/** The modules by the name each has. */
type Modules = { readonly [K in keyof Registry as Registry[K]["name"]]: Registry[K] };

const PROVIDER_APIS = Object.fromEntries(
  (Object.values(registry) as ProviderApiModule[]).map((module) => [module.name, module]),
) as unknown as Modules;

/** A provider API, by the name its module has. */
export type ProviderApi = keyof Modules;

/** @deprecated since 0.2: use ProviderApi (the same names). */
export type ToolApi = ProviderApi;

/** Every provider API, in the order lookups try them (the registry's, by module). */
export const PROVIDER_API_NAMES = Object.keys(PROVIDER_APIS) as ProviderApi[];

/**
 * The APIs whose module fills `slot` (`callStreams`: streaming reads them;
 * `exchange`: the eval harness calls them; `answer`: they have structured outputs).
 */
export type ProviderApiWith<K extends "callStreams" | "exchange" | "answer"> = {
  [A in ProviderApi]: Modules[A] extends { readonly [S in K]: unknown } ? A : never;
}[ProviderApi];

/** An API's name, or one of its earlier spellings ("responses", "chat-completions", "chat"). */
export type ProviderApiName<A extends ProviderApi = ProviderApi> = A | Modules[A]["spellings"][number];

/** The tool definition each API sends. */
export type ToolDefinitions = { readonly [A in ProviderApi]: ReturnType<Modules[A]["tool"]> };

/** The messages answering a turn's calls, per API. */
export type ToolResults = { readonly [A in ProviderApi]: ReturnType<Modules[A]["results"]>[number] };

/** The APIs with structured outputs (an `answer` slot). */
export type OutputApi = ProviderApiWith<"answer">;

/** The request member(s) each API's answer format is. */
export type OutputFormats = {
  readonly [A in OutputApi]: Modules[A] extends { readonly answer: AnswerSlot<infer F> } ? F : never;
};

/** The response each API's reader is typed to take. */
export type ProviderResponses = { readonly [A in ProviderApi]: Parameters<Modules[A]["calls"]>[0] };

/** The API a name or earlier spelling names; undefined for anything else. */
export function providerApi(name: string): ProviderApi | undefined {
  if (Object.hasOwn(PROVIDER_APIS, name)) return name as ProviderApi;
  for (const module of Object.values(PROVIDER_APIS) as ProviderApiModule[]) {
    if (module.spellings.includes(name)) return module.name as ProviderApi;
  }
  return undefined;
}

/** The module of an API, by its name or an earlier spelling. */
export function providerModule<A extends ProviderApi>(api: A): Modules[A];
export function providerModule(api: ProviderApiName): Modules[ProviderApi];
export function providerModule(api: ProviderApiName): Modules[ProviderApi] {
  const name = providerApi(api);
  // Only a caller outside TypeScript can pass another name.
  if (name === undefined) throw new TypeError(`no provider API is named ${JSON.stringify(api)}`);
  return PROVIDER_APIS[name];
}

/**
 * A compiled tool as the API's tool definition: the wire schema under the key
 * and in the envelope the API expects, strict mode on where the API has it. A
 * tool compiled for another target is refused (`invalid-options`): its wire
 * may use what this API does not accept; so is an option the API does not
 * have (`eagerInputStreaming` is Anthropic's).
 */
export function toolDefinition<A extends ProviderApi>(
  bundle: CompiledTool,
  api: A,
  options: ToolOptions = {},
): Result<ToolDefinitions[A]> {
  return checkedTool(providerModule(api) as unknown as ProviderApiModule<string, ToolDefinitions[A]>, bundle, options);
}

/**
 * The calls of a stored response of any API, told apart by the list it holds:
 * `output` (Responses), `choices` (Chat Completions), `content` (Anthropic),
 * `candidates` (Gemini); each module says what it holds (`holds`), asked in
 * the registry's order. Anything else holds no calls, as does a response whose
 * reading throws (a getter or proxy); nothing here throws on junk.
 */
export function storedCalls(response: unknown): ExtractedCalls {
  return wholeCalls((stored: unknown) => {
    if (!isPlainObject(stored)) return NO_CALLS;
    for (const module of Object.values(PROVIDER_APIS) as ProviderApiModule[]) {
      if (module.holds(stored)) return module.calls(stored as never);
    }
    return NO_CALLS;
  }, response);
}
