/**
 * The HTTP body target: responses whose bodies arrive in chunks of any size,
 * end or never end, and declare a Content-Length that is absent, true, too
 * low or too high, read by `readResponseText` (@strictwire/codec/http, the
 * one reader behind probe, eval and classify --ids) under a random cap.
 * In memory (a ReadableStream behind a Response): the same reader a fetch
 * hands its body to, thousands of cases a second. The tests hold the same
 * reader against real servers.
 */
import { readResponseText } from "@strictwire/codec/http";
import fc from "fast-check";
import { repro, thrownSignature } from "./findings.js";
import type { Runnable, TargetContext } from "./targets.js";

type Declared = "none" | "true" | "low" | "high";
type HttpCase = { chunks: number[]; endless: boolean; cap: number; declared: Declared; fill: number };

const arbitrary = fc.record({
  chunks: fc.array(fc.integer({ min: 0, max: 70_000 }), { minLength: 0, maxLength: 12 }),
  endless: fc.boolean(),
  cap: fc.integer({ min: 0, max: 200_000 }),
  declared: fc.constantFrom<Declared>("none", "true", "low", "high"),
  fill: fc.integer({ min: 0x20, max: 0x7e }),
});

interface Body {
  readonly response: Response;
  /** Bytes the reader pulled from the stream. */
  pulled(): number;
  /** The largest chunk handed over. */
  largest(): number;
  cancelled(): boolean;
}

function body(c: HttpCase): Body {
  let pulled = 0;
  let largest = 0;
  let cancelled = false;
  let next = 0;
  const total = c.chunks.reduce((n, x) => n + x, 0);
  // An endless body repeats its chunks forever (a chunk of at least one byte, so it does not end in place).
  const sizes = c.endless ? c.chunks.map((x) => Math.max(1, x)).concat(c.chunks.length === 0 ? [1] : []) : c.chunks;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!c.endless && next >= sizes.length) {
        controller.close();
        return;
      }
      const size = sizes[next % sizes.length] as number;
      next += 1;
      pulled += size;
      largest = Math.max(largest, size);
      controller.enqueue(new Uint8Array(size).fill(c.fill));
    },
    cancel() {
      cancelled = true;
    },
  });
  const headers = new Headers();
  if (c.declared === "true" && !c.endless) headers.set("content-length", String(total));
  if (c.declared === "low") headers.set("content-length", String(Math.max(0, Math.floor(total / 2))));
  if (c.declared === "high") headers.set("content-length", String(total + c.cap + 1));
  return {
    response: new Response(stream, { status: 200, headers }),
    pulled: () => pulled,
    largest: () => largest,
    cancelled: () => cancelled,
  };
}

/** What must hold, as problems found; none for a good case. */
async function problems(c: HttpCase): Promise<string[]> {
  const b = body(c);
  const read = await readResponseText(b.response, c.cap);
  const total = c.chunks.reduce((n, x) => n + x, 0);
  const out: string[] = [];
  const declaredOver = c.declared === "high" || (c.declared === "true" && !c.endless && total > c.cap);
  const over = c.endless || total > c.cap || declaredOver;
  if (over) {
    if (read.ok) out.push(`accepted ${read.value.length} bytes over the cap of ${c.cap}`);
    else if (read.error.code !== "response-too-large" || read.error.maxBytes !== c.cap || read.error.path !== "")
      out.push(`refused as ${read.error.code} (cap ${read.error.maxBytes}, path ${read.error.path})`);
    // Incremental: reading stops at the chunk that crosses the cap (a stream may pull one chunk ahead).
    if (b.pulled() > c.cap + 2 * b.largest()) out.push(`pulled ${b.pulled()} bytes for a cap of ${c.cap}`);
    if (!b.cancelled()) out.push("the body was not cancelled");
  } else if (!read.ok) {
    out.push(`refused ${total} bytes under the cap of ${c.cap}: ${read.error.message}`);
  } else if (read.value.length !== total || (total > 0 && read.value !== String.fromCharCode(c.fill).repeat(total))) {
    out.push(`read ${read.value.length} characters of ${total}`);
  }
  return out;
}

export const httpBody: Runnable = {
  name: "http-body",
  description: "HTTP bodies in chunks, endless or oversized, any Content-Length: readResponseText stays within its cap",
  weight: 3,
  property(ctx: TargetContext, onCase: (ms: number, input: unknown) => void) {
    return fc.asyncProperty(arbitrary as fc.Arbitrary<unknown>, async (raw) => {
      const input = raw as HttpCase;
      const start = performance.now();
      try {
        for (const problem of await problems(input))
          ctx.findings.record({
            target: "http-body",
            signature: problem.replace(/\d+/g, "N"),
            detail: problem,
            repro: repro({ case: input }),
          });
      } catch (error) {
        ctx.findings.record({
          target: "http-body",
          signature: thrownSignature("readResponseText", error),
          detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
          repro: repro({ case: input }),
        });
      }
      onCase(performance.now() - start, input);
      return true;
    });
  },
};
