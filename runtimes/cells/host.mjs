/**
 * The cells on a runtime that runs the installed packages as they are (Node,
 * Bun, Deno): `host.mjs allowed|forbidden` prints one line, `MATRIX {cells}`.
 * The run-time path and the compiler are imported apart, so a failed import
 * fails only the cells that need it.
 */
import { cell, compileCell, describe, piecesOf, precompiledCell, streamCell, toolSetCell, WIRE } from "./cells.mjs";

const codegen = globalThis.Deno?.args[0] ?? globalThis.process.argv[2];
const cells = {};

try {
  const tool = await import("./tool.mjs");
  const { streamDecoder } = await import("@strictwire/codec/runtime");
  cells.precompiled = await cell(() => precompiledCell(tool));
  cells.stream = await cell(() => streamCell(streamDecoder, tool, piecesOf(WIRE, 5)));
} catch (error) {
  cells.precompiled = cells.stream = { status: "FAIL", detail: `import of the precompiled module: ${describe(error)}` };
}

try {
  const { compileCodec, checkToolSet } = await import("@strictwire/codec");
  const { bundle } = await import("./tool.mjs");
  cells.compile = await cell(() => compileCell(compileCodec, codegen));
  cells.checkToolSet = await cell(() => toolSetCell(checkToolSet, bundle));
} catch (error) {
  cells.compile = cells.checkToolSet = { status: "FAIL", detail: `import of @strictwire/codec: ${describe(error)}` };
}

console.log(`MATRIX ${JSON.stringify(cells)}`);
