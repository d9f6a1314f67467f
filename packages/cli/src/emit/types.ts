/**
 * --emit types: TypeScript declarations of the tool's original contract, the
 * value a handler receives from decode. The codec writes them from the plan.
 */
import { emitTypes } from "@strictwire/codec";
import { fromCodec, succeed } from "../failure.js";
import type { Emitter } from "./emitter.js";

export const typesEmitter: Emitter = {
  name: "types",
  suffix: ".d.ts",
  render: (bundle) => {
    const text = emitTypes(bundle);
    return text.ok ? succeed(text.value) : fromCodec(text.error);
  },
};
