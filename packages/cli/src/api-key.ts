/**
 * The API key for a provider API, from the environment: STRICTWIRE_API_KEY
 * first, then the provider's own variable (its module's `exchange.keyVariable`).
 * Never printed, logged or written; only sent in the request's auth header.
 */
import { type ExchangeApiName, exchangeOf } from "@strictwire/eval";

export function apiKey(env: Readonly<Record<string, string | undefined>>, api: ExchangeApiName): string | undefined {
  const key = env.STRICTWIRE_API_KEY || env[exchangeOf(api).keyVariable];
  return key === undefined || key === "" ? undefined : key;
}

export const missingKeyMessage = (api: ExchangeApiName): string =>
  `no API key: set STRICTWIRE_API_KEY (or ${exchangeOf(api).keyVariable})`;
