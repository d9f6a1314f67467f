/** Reading a bundle for encode and decode, where it is configuration: a bad one is exit 2, not a rejection. */
import { type Codec, loadBundle } from "@strictwire/codec";
import { asEnvironment, fromCodec, type Outcome, succeed } from "../failure.js";
import { readInput } from "../input.js";
import type { Reporter } from "../report.js";

export async function readCodec(arg: string | undefined, reporter: Reporter): Promise<Outcome<Codec>> {
  const input = await readInput(arg, "bundle", reporter);
  if (!input.ok) return input;
  const loaded = loadBundle(input.value.bytes);
  if (loaded.ok) return succeed(loaded.value);
  // A damaged bundle is the deployment's problem, not the arguments': scripts
  // that hand exit-1 feedback to a model must never blame the model for it.
  return { ok: false, error: asEnvironment(fromCodec(loaded.error, input.value.label).error) };
}
