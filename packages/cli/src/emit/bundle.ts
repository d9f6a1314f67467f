/** The bundle itself: indented JSON, so that a bundle under version control diffs well. */
import { succeed } from "../failure.js";
import type { Emitter } from "./emitter.js";

export const bundleEmitter: Emitter = {
  name: "bundle",
  suffix: ".bundle.json",
  render: (bundle) => succeed(`${JSON.stringify(bundle, null, 2)}\n`),
};
