/**
 * compile --output-format <api>: the request member(s) asking that API for an
 * answer held to the wire (structured outputs), as JSON to spread into the
 * request body. The codec writes them, as it writes tool definitions.
 */
import { type OutputApi, outputFormat } from "@strictwire/codec";
import { fromCodec, succeed } from "../failure.js";
import type { Emitter } from "./emitter.js";

/** The CLI's short names for the APIs, and the library's own. */
export const OUTPUT_FORMAT_NAMES = ["chat", "responses", "anthropic", "gemini"] as const;
export type OutputFormatName = (typeof OUTPUT_FORMAT_NAMES)[number];

export const OUTPUT_API: Readonly<Record<OutputFormatName, OutputApi>> = {
  chat: "openai-chat",
  responses: "openai-responses",
  anthropic: "anthropic",
  gemini: "gemini",
};

/** The target an API's answer format takes when --target is not given. */
export const OUTPUT_TARGET = { chat: "openai", responses: "openai", anthropic: "anthropic", gemini: "gemini" } as const;

export function outputFormatEmitter(name: OutputFormatName): Emitter {
  return {
    name: "output-format",
    suffix: `.${name}.output-format.json`,
    render: (bundle) => {
      const format = outputFormat(bundle, OUTPUT_API[name]);
      return format.ok ? succeed(`${JSON.stringify(format.value, null, 2)}\n`) : fromCodec(format.error);
    },
  };
}
