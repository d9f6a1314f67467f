/** What `compile --emit` writes from a bundle. Each kind lives in its own module. */
import type { Bundle } from "@strictwire/codec";
import type { Outcome } from "../failure.js";
import { bundleEmitter } from "./bundle.js";
import { moduleEmitter } from "./module.js";
import { typesEmitter } from "./types.js";

export const EMIT_NAMES = ["bundle", "module", "types"] as const;
export type EmitName = (typeof EMIT_NAMES)[number];

export interface Emitter {
  /** An --emit kind, or compile --output-format's request fragment (emit/output-format.ts). */
  readonly name: EmitName | "output-format";
  /** How its output files end under --out-dir: "<basename><suffix>". */
  readonly suffix: string;
  render(bundle: Bundle): Outcome<string>;
}

const EMITTERS: Readonly<Record<EmitName, Emitter>> = {
  bundle: bundleEmitter,
  module: moduleEmitter,
  types: typesEmitter,
};

export const emitterFor = (name: EmitName): Emitter => EMITTERS[name];
