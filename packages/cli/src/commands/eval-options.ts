/**
 * eval's flags, one table: `eval --help` is built from it and the command
 * reads its defaults and bounds from it, so the help cannot name a default
 * the run does not use.
 */

import { DEFAULT_MAX_RESPONSE_BYTES, MAX_TIMER_MS } from "@strictwire/codec/http";
import { API_NAMES, DEFAULT_ARMS, exchangeOf } from "@strictwire/eval";
import { type Command, Option } from "commander";
import type { Bound } from "../number-flag.js";

/** Requests in flight, and repetitions planned: each takes memory before any is sent (1e10 exhausted it). */
const MAX_CONCURRENCY = 1024;
const MAX_REPEAT = 10_000;
export const MAX_RETRIES = 100;
/**
 * The widest bounds a provider API takes, so that no API's valid value is refused here: output tokens are an
 * int32 (Gemini's maxOutputTokens); a temperature is 0 to 2 (OpenAI and Gemini; Anthropic takes 0 to 1).
 */
export const MAX_OUTPUT_TOKENS = 2 ** 31 - 1;
const MAX_TEMPERATURE = 2;

export interface EvalOption {
  /** Commander's spelling: "--repeat <n>". */
  readonly flag: string;
  readonly description: string;
  /** Given to commander, so it is both shown in the help and what the command receives. */
  readonly default?: string;
  readonly number?: Bound;
}

const bounded =
  (integer: boolean) =>
  (min: number, max?: number): Bound => ({ min, integer, ...(max !== undefined ? { max } : {}) });
const whole = bounded(true);
const real = bounded(false);

export const EVAL_OPTIONS: readonly EvalOption[] = [
  { flag: "--api <api>", description: API_NAMES.join(", "), default: "chat" },
  {
    flag: "--endpoint <url>",
    description: `the API's base URL (default: ${[...new Set(API_NAMES.map((api) => exchangeOf(api).endpoint))].join(" or ")}, by --api)`,
  },
  { flag: "--model <name>", description: "the model to evaluate (required)" },
  { flag: "--suite <dir>", description: "a suite folder (default: the bundled core suite)" },
  { flag: "--arms <list>", description: "comma-separated arms", default: DEFAULT_ARMS.join(",") },
  {
    flag: "--repeat <n>",
    description: "repetitions of every (arm, scenario)",
    default: "1",
    number: whole(1, MAX_REPEAT),
  },
  { flag: "--seed <n>", description: "seed of the interleaved schedule", default: "1", number: whole(0) },
  {
    flag: "--concurrency <n>",
    description: "requests in flight",
    default: "1",
    number: whole(1, MAX_CONCURRENCY),
  },
  {
    flag: "--max-requests <n>",
    description: "stop before sending more requests than this",
    number: whole(0),
  },
  {
    flag: "--max-cost <dollars>",
    description: "stop before the spend could exceed this (needs prices)",
    number: real(0),
  },
  { flag: "--price-in <dollars>", description: "price per million input tokens", number: real(0) },
  { flag: "--price-out <dollars>", description: "price per million output tokens", number: real(0) },
  {
    flag: "--repair <n>",
    description: "0, or 1 to send strictwire's feedback back once when a decode fails",
    default: "0",
    number: whole(0),
  },
  { flag: "--timeout <ms>", description: "per request", default: "60000", number: whole(1, MAX_TIMER_MS) },
  {
    flag: "--retries <n>",
    description: "retries on 429, 5xx and timeouts",
    default: "3",
    number: whole(0, MAX_RETRIES),
  },
  {
    flag: "--backoff <ms>",
    description: "first retry delay when the server gives no Retry-After",
    default: "1000",
    number: whole(0, MAX_TIMER_MS),
  },
  {
    flag: "--max-response-bytes <n>",
    description: "bytes of one response body read at most; a longer one stops the run",
    default: String(DEFAULT_MAX_RESPONSE_BYTES),
    number: whole(1),
  },
  {
    flag: "--max-tokens <n>",
    description: "maximum output tokens per request",
    default: "1024",
    number: whole(1, MAX_OUTPUT_TOKENS),
  },
  {
    flag: "--temperature <t>",
    description: "sampling temperature",
    default: "0",
    number: real(0, MAX_TEMPERATURE),
  },
  { flag: "--out <file.jsonl>", description: "results, appended as they arrive", default: "strictwire-eval.jsonl" },
  { flag: "--resume", description: "continue the run recorded in --out, skipping finished trials" },
  {
    flag: "--report <file.md>",
    description: "also write a Markdown report, and its chart as an SVG beside it (<file>.svg)",
  },
];

/** The camel-case property commander gives a flag: "--max-cost <dollars>" → "maxCost". */
export const flagKey = (flag: string): string =>
  (flag.split(" ")[0] as string).replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export function addEvalOptions(command: Command): Command {
  for (const o of EVAL_OPTIONS) {
    const option = new Option(o.flag, o.description);
    command.addOption(o.default !== undefined ? option.default(o.default) : option);
  }
  return command;
}
