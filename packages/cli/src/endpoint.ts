/**
 * The base URL a provider API's requests go to: `--endpoint`, or the API's
 * default. Only http(s): anything else is the user's mistake, said once for
 * every command that talks to a provider.
 */
import type { Result } from "@strictwire/codec";
import { type ExchangeApiName, exchangeOf } from "@strictwire/eval";

export function endpointFor(flag: string | undefined, api: ExchangeApiName): Result<string, string> {
  const endpoint = flag ?? exchangeOf(api).endpoint;
  try {
    const u = new URL(endpoint);
    if (u.protocol === "http:" || u.protocol === "https:") return { ok: true, value: endpoint };
  } catch {
    // Not a URL at all: the same message as a URL of another scheme.
  }
  return { ok: false, error: `--endpoint must be an http(s) base URL, not ${JSON.stringify(endpoint)}` };
}
