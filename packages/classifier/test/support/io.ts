import type { RunIO } from "../../src/index.js";

export interface Captured {
  readonly io: RunIO;
  readonly out: () => string;
  readonly err: () => string;
  readonly outLines: () => string[];
}

/** An io for runClassify that keeps what was written. */
export function capture(env: Readonly<Record<string, string | undefined>> = {}): Captured {
  let out = "";
  let err = "";
  return {
    io: { stdout: (text) => (out += text), stderr: (text) => (err += text), env },
    out: () => out,
    err: () => err,
    outLines: () => out.split("\n").filter((line) => line !== ""),
  };
}
