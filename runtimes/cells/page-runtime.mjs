/** The page's run-time path: the precompiled module and the stream decoder, nothing else. */
import { streamDecoder } from "@strictwire/codec/runtime";
import { cell, piecesOf, precompiledCell, streamCell, WIRE } from "./cells.mjs";
import { report, showPartial } from "./page.mjs";
import * as tool from "./tool.mjs";

const precompiled = await cell(() => precompiledCell(tool));
const stream = await cell(() => streamCell(streamDecoder, tool, piecesOf(WIRE, 5), showPartial));
report("runtime", { precompiled, stream });
