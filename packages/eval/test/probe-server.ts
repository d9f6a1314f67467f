/**
 * A provider stand-in on 127.0.0.1 for the probe: it keeps every request
 * (path, headers, body) and answers each with the next scripted answer, the
 * refusals in each provider's recorded error shape.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProbeSeen {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

export interface ProbeAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface ProbeServer {
  readonly url: string;
  readonly seen: ProbeSeen[];
  close(): Promise<void>;
}

/** The error bodies as the providers send them; the texts are quoted from public reports (docs/targets.md). */
export const REFUSALS = {
  openaiFirstKey: {
    status: 400,
    body: {
      error: {
        message:
          "Invalid schema: Objects provided via 'anyOf' must not share identical first keys. Consider adding a discriminator key or rearranging the properties to ensure the first key is unique.",
        type: "invalid_request_error",
        param: "tools[0].function.parameters",
        code: "invalid_function_parameters",
      },
    },
  },
  anthropicOptional: {
    status: 400,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "Schemas contains too many optional parameters (28), which would make grammar compilation inefficient. Reduce the number of optional parameters in your tool schemas (limit: 24).",
      },
    },
  },
  anthropicUnion: {
    status: 400,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "Schemas contains too many parameters with union types (24 parameters with type arrays or anyOf) which exceeds the limit: 16",
      },
    },
  },
  anthropicGrammar: {
    status: 400,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "The compiled grammar is too large, which would cause performance issues. Simplify your tool schemas or reduce the number of strict tools.",
      },
    },
  },
  anthropicComplex: {
    status: 400,
    body: { type: "error", error: { type: "invalid_request_error", message: "Schema is too complex for compilation" } },
  },
  geminiInvalid: {
    status: 400,
    body: {
      error: {
        code: 400,
        message:
          "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type",
        status: "INVALID_ARGUMENT",
      },
    },
  },
  geminiLive: {
    status: 400,
    body: {
      error: {
        code: 400,
        message:
          "Invalid JSON payload received. Unknown name \"parametersJsonSchema\" at 'setup.tools[0].function_declarations[0]': Cannot find field.",
        status: "INVALID_ARGUMENT",
      },
    },
  },
} as const satisfies Record<string, ProbeAnswer>;

export async function startProbeServer(script: (seen: ProbeSeen, index: number) => ProbeAnswer): Promise<ProbeServer> {
  const seen: ProbeSeen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry: ProbeSeen = {
        path: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
      };
      seen.push(entry);
      const answer = script(entry, seen.length - 1);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 200 in each API's shape (the probe reads only the status). */
export const ACCEPTED: ProbeAnswer = { status: 200, body: { id: "ok" } };
