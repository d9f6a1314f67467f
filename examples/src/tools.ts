/**
 * The tool set every example shares: two contracts compiled to strict wire
 * schemas, typed by the declarations generated from them (src/generated, by
 * `pnpm --filter @strictwire/examples types`), and their handlers.
 */
import { readFileSync } from "node:fs";
import { type Codec, compileCodec, type ToolCallInfo } from "@strictwire/codec";
import type { GetWeatherArguments } from "./generated/get_weather.js";
import type { UpdateContactArguments } from "./generated/update_contact.js";

export const TOOL_NAMES = ["get_weather", "update_contact"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export function schemaOf(name: ToolName): unknown {
  return JSON.parse(readFileSync(new URL(`../schemas/${name}.json`, import.meta.url), "utf8"));
}

/** The providers' strict modes differ, so each compiles the same contracts for its own target. */
export type Target = "openai" | "anthropic" | "gemini";

function codec<T>(name: ToolName, target: Target): Codec<T> {
  const compiled = compileCodec<T>(schemaOf(name), { name, target });
  // The schemas are this project's own: one that does not compile is a bug here, not input.
  if (!compiled.ok) throw new Error(`${name}: ${compiled.error.message}`);
  return compiled.value;
}

export function toolSet(target: Target) {
  return {
    get_weather: codec<GetWeatherArguments>("get_weather", target),
    update_contact: codec<UpdateContactArguments>("update_contact", target),
  };
}

const WEATHER: Readonly<Record<string, { c: number; sky: string }>> = {
  Oslo: { c: 4, sky: "cloudy" },
  Lima: { c: 19, sky: "overcast" },
};

/** Each handler gets the original value, typed: absent and null are different things here. */
export const handlers = {
  get_weather: (args: GetWeatherArguments, call: ToolCallInfo) => {
    log(call, args);
    const w = WEATHER[args.city];
    if (w === undefined) return { city: args.city, error: "no station" };
    const unit = args.unit ?? "celsius";
    const temperature = unit === "celsius" ? w.c : Math.round((w.c * 9) / 5 + 32);
    return { city: args.city, temperature, unit, sky: w.sky };
  },
  update_contact: (args: UpdateContactArguments, call: ToolCallInfo) => {
    log(call, args);
    // The distinction the codec exists for: a member left out is "keep", null is "clear".
    const changes = (["email", "phone", "labels"] as const).map((member) => {
      if (!Object.hasOwn(args, member)) return `${member}: kept`;
      return args[member] === null ? `${member}: cleared` : `${member}: set`;
    });
    return `contact ${args.id} updated (${changes.join(", ")})`;
  },
};

function log(call: ToolCallInfo, args: unknown): void {
  console.log(`  handler ${call.name} received ${JSON.stringify(args)}`);
}
