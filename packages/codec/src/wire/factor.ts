/** Factored form: placeholder until the factoring pass lands; returns the wire unchanged. */
import type { JsonObject } from "../json.js";

export function factorWire(wire: JsonObject): JsonObject {
  return wire;
}
