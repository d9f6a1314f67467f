/** Names derived from file names: tool names and output files. */
import { basename } from "node:path";

const MAX_TOOL_NAME = 64;

/** A file's name without its directory and its last extension: "a/settings.v2.json" -> "settings.v2". */
export function stem(path: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** A tool name from a file name: letters, digits, _ and - only, at most 64; "tool" when nothing is left. */
export function toolNameFor(path: string): string {
  const name = stem(path)
    .replace(/[^A-Za-z0-9_-]/g, "_")
    .slice(0, MAX_TOOL_NAME);
  return name === "" ? "tool" : name;
}
