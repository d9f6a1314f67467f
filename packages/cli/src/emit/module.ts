/**
 * --emit module: the bundle as an importable module. Not built yet; to build
 * it, write render, drop `unsupported`, and pick the suffix.
 */
import { notSupported } from "../failure.js";
import type { Emitter } from "./emitter.js";

const UNSUPPORTED = "--emit module is not supported yet";

export const moduleEmitter: Emitter = {
  name: "module",
  suffix: ".bundle.js",
  unsupported: UNSUPPORTED,
  render: () => notSupported(UNSUPPORTED),
};
