/**
 * The arguments of each tools/call as JSON text, read from the message the
 * downstream transport parsed, before the SDK's server checks the request
 * against its schema. That check rebuilds the arguments object by assignment,
 * which drops a member named `__proto__`; the transport's JSON.parse keeps it
 * as an own member, so the text written here still has it and the codec can
 * refuse it (a closed wire object has no such member). Duplicate member names
 * are merged by the transport's JSON.parse already: those stay invisible.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo, RequestInfo } from "@modelcontextprotocol/sdk/types.js";

/** Keyed by the request's own RequestInfo object, which the SDK hands to the handler as it got it. */
const texts = new WeakMap<RequestInfo, string>();

/** The transport, with the arguments text of every tools/call kept for `argumentsTextOf`. */
export function keepArgumentsText(inner: Transport): Transport {
  const outer: Transport = {
    start: async () => {
      inner.onclose = () => outer.onclose?.();
      inner.onerror = (error) => outer.onerror?.(error);
      inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
        // A fresh object per message: the key of this message's text and nothing else's.
        const requestInfo: RequestInfo = { headers: {}, ...extra?.requestInfo };
        const text = callArgumentsText(message);
        if (text !== undefined) texts.set(requestInfo, text);
        outer.onmessage?.(message, { ...extra, requestInfo });
      };
      await inner.start();
    },
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  return outer;
}

/** The arguments text of the tools/call whose handler got this `extra`, when its transport was wrapped. */
export function argumentsTextOf(extra: { readonly requestInfo?: RequestInfo }): string | undefined {
  return extra.requestInfo === undefined ? undefined : texts.get(extra.requestInfo);
}

function callArgumentsText(message: JSONRPCMessage): string | undefined {
  if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) return undefined;
  const args: unknown = message.params?.arguments;
  if (args === undefined) return undefined;
  try {
    return JSON.stringify(args);
  } catch {
    // Nested deeper than JSON.stringify's stack (JSON.parse reads any depth): written here instead, for the
    // codec to refuse by its depth limit. A throw here would drop the message, leaving the call unanswered.
    return deepJsonText(args);
  }
}

/** JSON.stringify's text of a JSON.parse result, on a stack of its own: any depth. */
function deepJsonText(root: unknown): string {
  const parts: string[] = [];
  const open: { readonly value: Record<string, unknown> | unknown[]; readonly keys?: string[]; next: number }[] = [];
  const write = (value: unknown): void => {
    if (Array.isArray(value)) {
      parts.push("[");
      open.push({ value, next: 0 });
    } else if (typeof value === "object" && value !== null) {
      parts.push("{");
      open.push({ value: value as Record<string, unknown>, keys: Object.keys(value), next: 0 });
    } else parts.push(JSON.stringify(value) ?? "null");
  };
  write(root);
  for (let top = open.at(-1); top !== undefined; top = open.at(-1)) {
    const { value, keys } = top;
    const i = top.next++;
    if (i >= (keys ?? (value as unknown[])).length) {
      parts.push(keys === undefined ? "]" : "}");
      open.pop();
      continue;
    }
    if (i > 0) parts.push(",");
    if (keys === undefined) write((value as unknown[])[i]);
    else {
      parts.push(`${JSON.stringify(keys[i])}:`);
      write((value as Record<string, unknown>)[keys[i]!]);
    }
  }
  return parts.join("");
}
