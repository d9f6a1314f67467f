/**
 * --emit types: TypeScript declarations for the tool's original value. Not
 * built yet; to build it, write render, drop `unsupported`, and pick the suffix.
 */
import { notSupported } from "../failure.js";
import type { Emitter } from "./emitter.js";

const UNSUPPORTED = "--emit types is not supported yet";

export const typesEmitter: Emitter = {
  name: "types",
  suffix: ".d.ts",
  unsupported: UNSUPPORTED,
  render: () => notSupported(UNSUPPORTED),
};
