/**
 * Encode refusals that are the decoder's limits speaking, not the wire: encode
 * refuses a value its own decoder could not read back exactly (beyond ±2^53,
 * too deep, too many values). Such a valid instance is listed apart, as
 * "beyond decoder limits", rather than as a round-trip failure.
 */
export const LIMIT_CODES: ReadonlySet<string> = new Set([
  "exceeds-decoder-limits",
  "unsafe-number",
  "too-deep",
  "too-many-nodes",
  "input-too-large",
]);
