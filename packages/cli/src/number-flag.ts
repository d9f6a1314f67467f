/**
 * Every number flag of the CLI is read here. `Number()` alone took "0x10",
 * "1e3", " 12 ", "0b1", "12." and "" as numbers: a value is decimal digits,
 * with a decimal fraction only where the flag is a fraction (a temperature).
 */
import { type Outcome, succeed, usage } from "./failure.js";

/** A number flag: its lowest value, its highest when there is one, and whether it must be whole. */
export interface Bound {
  readonly min: number;
  readonly max?: number;
  readonly integer: boolean;
}

const WHOLE = /^[0-9]+$/;
const DECIMAL = /^[0-9]+(?:\.[0-9]+)?$/;

/** A flag's value as `bound` allows it, or a usage failure naming the flag, the value and what is allowed. */
export function numberFlag(flag: string, raw: string, bound: Bound): Outcome<number> {
  const n = Number(raw);
  const { min, max } = bound;
  if (
    !(bound.integer ? WHOLE : DECIMAL).test(raw) ||
    (bound.integer ? !Number.isSafeInteger(n) : !Number.isFinite(n)) ||
    n < min ||
    (max !== undefined && n > max)
  ) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    const kind = bound.integer ? "an integer" : "a number";
    const spelling = bound.integer ? "decimal digits" : "decimal digits (e.g. 0.5)";
    return usage(`${flag.split(" ")[0]} must be ${kind} ${range} in ${spelling}, not ${JSON.stringify(raw)}`);
  }
  return succeed(n);
}

/** numberFlag for a flag that may be absent: undefined when it is. */
export function optionalNumberFlag(flag: string, raw: string | undefined, bound: Bound): Outcome<number | undefined> {
  return raw === undefined ? succeed(undefined) : numberFlag(flag, raw, bound);
}
