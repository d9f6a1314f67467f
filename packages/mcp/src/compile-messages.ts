/** What the proxy and its compile workers say to each other (structured-clone data only). */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { CodecError, Result } from "@strictwire/codec";
import type { StrictOptions } from "./tools.js";

/** A job for a worker: compile a tool and keep its codec under `key`, or decode a call with it. */
export type Job =
  | { readonly kind: "compile"; readonly key: string; readonly tool: Tool; readonly options: StrictOptions }
  | { readonly kind: "decode"; readonly key: string; readonly text: string };

export type WorkerRequest = (Job & { readonly id: number }) | { readonly kind: "release"; readonly key: string };

export type WorkerReply =
  | { readonly kind: "ready" }
  | { readonly id: number; readonly kind: "strict"; readonly wire: unknown }
  | { readonly id: number; readonly kind: "pass-through"; readonly reason: CodecError }
  | { readonly id: number; readonly kind: "decoded"; readonly result: Result<Record<string, unknown>> }
  | { readonly id: number; readonly kind: "lost" };
