/**
 * The compile pool's worker thread: compiles upstream tools and keeps their
 * codecs, and decodes calls with them. ajv's compile is synchronous and can
 * take seconds on a wide schema, so it runs here, where the proxy's event
 * loop does not wait for it and a compile over its budget can be stopped by
 * terminating the thread. The validators are functions and cannot leave the
 * thread, so the codecs stay here and calls come to them.
 */
import { parentPort } from "node:worker_threads";
import type { Codec, CodecError } from "@strictwire/codec";
import type { WorkerReply, WorkerRequest } from "./compile-messages.js";
import { compileTool, decodeArgumentsText } from "./tools.js";

const port = parentPort;
if (port === null) throw new Error("compile-worker runs as a worker thread");
const codecs = new Map<string, Codec<unknown>>();

port.on("message", (request: WorkerRequest) => {
  const reply = answer(request);
  if (reply !== undefined) port.postMessage(reply);
});
// Loading the codec and ajv's first compile (its meta-schemas) take a while once: not on any tool's budget.
compileTool({ name: "warm_up", inputSchema: { type: "object", properties: { a: { type: "string" } } } });
port.postMessage({ kind: "ready" } satisfies WorkerReply);

function answer(request: WorkerRequest): WorkerReply | undefined {
  switch (request.kind) {
    case "compile": {
      let compiled: ReturnType<typeof compileTool>;
      try {
        compiled = compileTool(request.tool, request.options);
      } catch (error) {
        // A codec bug on this schema must not end the worker (and the codecs it holds): the tool passes through.
        return { id: request.id, kind: "pass-through", reason: thrown("compiling", "invalid-schema", error) };
      }
      if (compiled.kind === "pass-through") return { id: request.id, kind: "pass-through", reason: compiled.reason };
      codecs.set(request.key, compiled.codec);
      return { id: request.id, kind: "strict", wire: compiled.codec.wire };
    }
    case "decode": {
      const codec = codecs.get(request.key);
      if (codec === undefined) return { id: request.id, kind: "lost" };
      try {
        return { id: request.id, kind: "decoded", result: decodeArgumentsText(codec, request.text) };
      } catch (error) {
        // Refused, never forwarded: the upstream sees only calls the codec accepted.
        return {
          id: request.id,
          kind: "decoded",
          result: { ok: false, error: thrown("decoding", "invalid-value", error) },
        };
      }
    }
    case "release":
      codecs.delete(request.key);
      return undefined;
  }
}

function thrown(doing: string, code: CodecError["code"], error: unknown): CodecError {
  const message = `${doing} threw: ${error instanceof Error ? error.message : String(error)}`;
  return { code, path: "", message, feedback: message };
}
