/**
 * A fetch handler for the Worker runtimes (workerd, the Edge runtime): POST a
 * call's argument text; the handler pushes the body to the stream decoder as
 * it arrives, streams back each partial value as a line of JSON, and ends
 * with a line `{"cells":…}`: the stream, the precompiled decode of the body,
 * compile at request time (code generation forbidden there), checkToolSet,
 * and whatever the entry ran at start-up.
 */
import { checkToolSet, compileCodec } from "@strictwire/codec";
import { streamDecoder } from "@strictwire/codec/runtime";
import { cell, compileCell, describe, precompiledCell, streamCell, toolSetCell } from "./cells.mjs";
import * as tool from "./tool.mjs";

/** Compile during module evaluation: the caller says whether its runtime allows code generation then. */
export function compileAtStartup(codegen) {
  return cell(() => compileCell(compileCodec, codegen));
}

export async function handle(request, atStartup) {
  if (request.method !== "POST" || request.body === null) {
    return new Response("POST a call's argument text\n", { status: 405 });
  }
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const line = (value) => writer.write(encoder.encode(`${JSON.stringify(value)}\n`));
  const respond = async () => {
    const cells = {};
    for (const [name, outcome] of Object.entries(atStartup)) cells[name] = await outcome;
    let text = "";
    const pieces = textOf(request.body, (piece) => {
      text += piece;
    });
    cells.stream = await cell(() => streamCell(streamDecoder, tool, pieces, (partial) => line({ partial })));
    cells.precompiled = await cell(() => precompiledCell(tool, text));
    cells.compile = await cell(() => compileCell(compileCodec, "forbidden"));
    cells.checkToolSet = await cell(() => toolSetCell(checkToolSet, tool.bundle));
    await line({ cells });
  };
  respond()
    .catch((error) => line({ error: describe(error) }))
    .finally(() => writer.close());
  return new Response(readable, { headers: { "content-type": "application/x-ndjson" } });
}

/** The body's text, piece by piece as it arrives. */
async function* textOf(body, seen) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    seen(value);
    yield value;
  }
}
