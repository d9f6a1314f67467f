/**
 * --emit module: an ES module holding the bundle and its first-error
 * validators compiled to code, so that loading the tool runs no ajv compile.
 * `.mjs`, because the module is ESM whatever the user's package.json says.
 */
import { standaloneModule } from "@strictwire/codec";
import { fromCodec, succeed } from "../failure.js";
import type { Emitter } from "./emitter.js";

export const moduleEmitter: Emitter = {
  name: "module",
  suffix: ".bundle.mjs",
  render: (bundle) => {
    const text = standaloneModule(bundle);
    return text.ok ? succeed(text.value) : fromCodec(text.error);
  },
};
