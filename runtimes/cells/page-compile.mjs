/** The page's compiler path: compile (the page's CSP forbids code generation) and checkToolSet. */
import { checkToolSet, compileCodec } from "@strictwire/codec";
import { cell, compileCell, toolSetCell } from "./cells.mjs";
import { report } from "./page.mjs";
import { bundle } from "./tool.mjs";

const compile = await cell(() => compileCell(compileCodec, "forbidden"));
const toolSet = await cell(() => toolSetCell(checkToolSet, bundle));
report("compile", { compile, checkToolSet: toolSet });
