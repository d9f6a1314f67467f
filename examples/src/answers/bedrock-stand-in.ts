/**
 * A local stand-in for Amazon Bedrock's Converse and ConverseStream: HTTP/2
 * in clear text on 127.0.0.1 (the AWS SDK's Bedrock runtime client speaks
 * HTTP/2), answering with a scripted answer text, whole as Converse's JSON or
 * streamed in AWS's binary event-stream framing (encoded with the SDK's own
 * codec), ended by `messageStop` with `stopReason: "end_turn"`. Scripted
 * replies, not a model's output.
 */
import { createServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { EventStreamCodec } from "@smithy/eventstream-codec";

export interface BedrockStandIn {
  readonly endpoint: string;
  close(): Promise<void>;
}

const frames = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

function event(type: string, payload: unknown): Uint8Array {
  return frames.encode({
    headers: {
      ":message-type": { type: "string", value: "event" },
      ":event-type": { type: "string", value: type },
      ":content-type": { type: "string", value: "application/json" },
    },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  });
}

export async function startBedrockStandIn(text: string, deltas: readonly string[]): Promise<BedrockStandIn> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.endsWith("/converse-stream")) {
        res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
        const all = [
          event("messageStart", { role: "assistant" }),
          ...deltas.map((d) => event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: d } })),
          event("contentBlockStop", { contentBlockIndex: 0 }),
          event("messageStop", { stopReason: "end_turn" }),
        ];
        res.end(Buffer.concat(all));
        return;
      }
      const body = {
        output: { message: { role: "assistant", content: [{ text }] } },
        stopReason: "end_turn",
        usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 },
        metrics: { latencyMs: 1 },
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
