/**
 * The API key for a provider API, from the environment: STRICTWIRE_API_KEY
 * first, then the provider's own variable. Never printed, logged or written;
 * only sent in the request's auth header.
 */
import type { Api } from "@strictwire/eval";

const PROVIDER_VARIABLE: Readonly<Record<Api, string>> = {
  chat: "OPENAI_API_KEY",
  responses: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
};

export function apiKey(env: Readonly<Record<string, string | undefined>>, api: Api): string | undefined {
  const key = env.STRICTWIRE_API_KEY || env[PROVIDER_VARIABLE[api]];
  return key === undefined || key === "" ? undefined : key;
}

export const missingKeyMessage = (api: Api): string =>
  `no API key: set STRICTWIRE_API_KEY (or ${PROVIDER_VARIABLE[api]})`;
