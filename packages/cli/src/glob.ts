/**
 * A small glob for quoted patterns (the shell expands unquoted ones): `*`,
 * `?`, `[abc]` / `[!abc]` within one path segment, and `**` for any number
 * of directories. Like a shell, wildcards do not match a leading dot, and
 * `**` does not follow symbolic links (no cycles). Node 20 has no fs.glob.
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { isAbsolute, join, parse } from "node:path";

export const hasMagic = (s: string): boolean => /[*?[]/.test(s);

/** Files matching the pattern, sorted. */
export async function glob(pattern: string): Promise<string[]> {
  const root = isAbsolute(pattern) ? parse(pattern).root : "";
  const segments = pattern
    .slice(root.length)
    .split(/[\\/]+/)
    .filter((s) => s !== "" && s !== ".");
  const found = new Set<string>();
  await walk(root || ".", root, segments, found);
  return [...found].sort();
}

async function walk(dir: string, shown: string, segments: readonly string[], found: Set<string>): Promise<void> {
  const [segment, ...rest] = segments;
  if (segment === undefined) return;
  if (segment === "**") {
    // `**` last means every file below; otherwise zero or more directories, then the rest.
    await walk(dir, shown, rest.length === 0 ? ["*"] : rest, found);
    for (const entry of await entries(dir)) {
      if (entry.isDirectory() && !entry.name.startsWith(".")) {
        await walk(join(dir, entry.name), join(shown, entry.name), segments, found);
      }
    }
    return;
  }
  const matches = matcher(segment);
  for (const entry of await entries(dir)) {
    if (!matches(entry.name)) continue;
    const path = join(dir, entry.name);
    const kind = await kindOf(entry, path);
    if (rest.length === 0 && kind === "file") found.add(join(shown, entry.name));
    else if (rest.length > 0 && kind === "dir") await walk(path, join(shown, entry.name), rest, found);
  }
}

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    // An unreadable directory matches nothing, as in a shell.
    return [];
  }
}

async function kindOf(entry: Dirent, path: string): Promise<"file" | "dir" | "other"> {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "dir";
  if (!entry.isSymbolicLink()) return "other";
  try {
    const info = await stat(path);
    return info.isFile() ? "file" : info.isDirectory() ? "dir" : "other";
  } catch {
    return "other";
  }
}

/** A test for one path segment. A segment with no wildcard matches only itself. */
export function matcher(segment: string): (name: string) => boolean {
  if (!hasMagic(segment)) return (name) => name === segment;
  const re = new RegExp(`^${segmentSource(segment)}$`, "u");
  const dotOk = segment.startsWith(".");
  return (name) => (dotOk || !name.startsWith(".")) && re.test(name);
}

function segmentSource(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      out += `[${negated ? "^" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      i = close;
    } else out += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return out;
}
