/**
 * A Bedrock runtime on 127.0.0.1 for the real AWS SDK: HTTP/2 in clear text
 * (the SDK's Bedrock client speaks HTTP/2), each request's JSON body kept,
 * answered by whatever `answer` is set to; ConverseStream's events are framed
 * with the SDK's own event-stream codec (`eventFrame`).
 */
import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Http2ServerResponse } from "node:http2";
import type { AddressInfo } from "node:net";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { EventStreamCodec } from "@smithy/eventstream-codec";

export interface SeenRequest {
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

export interface BedrockLoopback {
  /** Signs with static test credentials, one attempt per request. */
  readonly client: BedrockRuntimeClient;
  readonly seen: SeenRequest[];
  /** How the next request is answered (a 500 until set). */
  answer: (res: Http2ServerResponse) => void;
  close(): Promise<void>;
}

export async function bedrockLoopback(): Promise<BedrockLoopback> {
  const seen: SeenRequest[] = [];
  const loop = { seen, answer: (res: Http2ServerResponse) => void res.writeHead(500).end() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method, path: req.url, headers: req.headers, body: text ? JSON.parse(text) : {} });
      loop.answer(res);
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  const client = new BedrockRuntimeClient({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: "AKIDSTRICTWIRETEST", secretAccessKey: "strictwire-test-secret" },
    maxAttempts: 1,
  });
  return Object.assign(loop, {
    client,
    close: async () => {
      client.destroy();
      await new Promise((done) => server.close(done));
    },
  });
}

/** Answers with a JSON body. */
export const json =
  (body: unknown) =>
  (res: Http2ServerResponse): void =>
    void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));

const frames = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** One ConverseStream event in AWS's binary event-stream framing. */
export const eventFrame = (type: string, payload: unknown): Uint8Array =>
  frames.encode({
    headers: {
      ":message-type": { type: "string", value: "event" },
      ":event-type": { type: "string", value: type },
      ":content-type": { type: "string", value: "application/json" },
    },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  });
