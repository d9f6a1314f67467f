/**
 * What the provider API modules share: reading untrusted values, the calls of
 * one stream by the key an API's events name them with, and the name and
 * strict switch of a tool definition. Nothing here knows any one API.
 */
import { ok, type Result } from "../errors.js";
import { fail } from "../feedback/format.js";
import { isPlainObject } from "../json.js";
import type { CompiledTool } from "../targets/profile.js";
import type { CallStreams, DeltaSink, ProviderApiModule } from "./api.js";

export function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Token usage from the two counts an API names; undefined unless both are numbers. */
export function usageOf(u: unknown, inKey: string, outKey: string): { input: number; output: number } | undefined {
  if (!isPlainObject(u)) return undefined;
  const input = num(u[inKey]);
  const output = num(u[outKey]);
  return input !== undefined && output !== undefined ? { input, output } : undefined;
}

// ---- tool definitions ---------------------------------------------------------

/** A bundle over the target's limits, compiled with `strict: "auto"`, is sent with strict mode off. */
export function isStrict(b: CompiledTool): boolean {
  return b.nonStrict === undefined;
}

export function named(b: { readonly name: string; readonly description?: string }): {
  name: string;
  description?: string;
} {
  return b.description !== undefined ? { name: b.name, description: b.description } : { name: b.name };
}

/**
 * The module's definition of `bundle`, refused (`invalid-options`) when the
 * bundle was compiled for another target: its wire may use what this API
 * does not accept.
 */
export function checkedTool<T>(module: ProviderApiModule<string, T>, bundle: CompiledTool): Result<T> {
  const want = module.target;
  // A fine-tuned model's wire is sent through the same APIs.
  const target = bundle.options.target === "openai-finetuned" ? "openai" : bundle.options.target;
  if (target !== want) {
    return fail(
      "invalid-options",
      "",
      `tool ${bundle.name} was compiled for the ${bundle.options.target} target; compile it with target "${want}" for ${module.name}`,
    );
  }
  return ok(module.tool(bundle));
}

// ---- stream events --------------------------------------------------------------

interface Call<S extends DeltaSink> {
  id: string;
  name: string;
  sink: S;
  pushed: number;
  ended: boolean;
}

/** The calls of one stream, by whatever key the provider's events name them with. */
export class Calls<S extends DeltaSink> {
  readonly list: Call<S>[] = [];
  private readonly byKey = new Map<string, Call<S>>();

  constructor(private readonly open: (call: { id: string; name: string }) => S) {}

  start(key: string, id: string, name: string): Call<S> | undefined {
    if (this.byKey.has(key)) return undefined;
    const call: Call<S> = { id, name, sink: this.open({ id, name }), pushed: 0, ended: false };
    this.byKey.set(key, call);
    this.list.push(call);
    return call;
  }

  get(key: string): Call<S> | undefined {
    return this.byKey.get(key);
  }

  push(call: Call<S> | undefined, delta: string): Call<S> | undefined {
    if (call === undefined || call.ended) return undefined;
    if (delta.length === 0) return call;
    call.sink.push(delta);
    call.pushed += delta.length;
    return call;
  }

  end(call: Call<S> | undefined): Call<S> | undefined {
    if (call === undefined || call.ended) return call;
    call.ended = true;
    call.sink.end();
    return call;
  }

  finish(): void {
    for (const call of this.list) this.end(call);
  }
}

export type { Call };

/** The reader of one stream: each event that is a JSON object goes to `read`; anything else is ignored. */
export function streams<S extends DeltaSink>(
  calls: Calls<S>,
  read: (e: Record<string, unknown>) => Call<S> | undefined,
): CallStreams<S> {
  return {
    event: (event: unknown) => (isPlainObject(event) ? read(event) : undefined),
    finish: () => calls.finish(),
    get calls() {
      return calls.list;
    },
  } satisfies CallStreams<S>;
}

/** An input object as text: `{}` when absent; nothing for what JSON cannot write (a crafted event). */
export function inputText(input: unknown): string {
  if (input === undefined) return "{}";
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return "";
  }
}
