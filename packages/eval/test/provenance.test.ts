import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { endpointHost, isLoopback, strictwireCommit } from "../src/index.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function layout(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "strictwire-provenance-"));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  await mkdir(join(dir, "repo", "packages", "eval"), { recursive: true });
  return join(dir, "repo", "packages", "eval");
}

describe("the endpoint as provenance records it", () => {
  it("is host[:port] only: no scheme, credentials, path or query", () => {
    expect(endpointHost("https://user:sk-secret@api.example.com:8443/v1?key=sk-secret")).toBe("api.example.com:8443");
    expect(endpointHost("not a url")).toBe("(not a URL)");
  });
  it.each([
    ["127.0.0.1:8080", true],
    ["127.4.5.6", true],
    ["localhost:3000", true],
    ["[::1]:9000", true],
    ["api.openai.com", false],
    ["127.0.0.1.example.com", false],
    ["10.0.0.1:8000", false],
  ])("%s is loopback: %s", (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});

describe("strictwire's commit, read from the git files", () => {
  it("a branch's loose ref", async () => {
    const from = await layout({ "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/.git/refs/heads/main": `${A}\n` });
    expect(strictwireCommit(from)).toBe(A);
  });
  it("a packed ref, and a detached HEAD", async () => {
    const from = await layout({
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/.git/packed-refs": `# pack-refs with: peeled\n${B} refs/heads/other\n${A} refs/heads/main\n`,
    });
    expect(strictwireCommit(from)).toBe(A);
    await writeFile(join(dir as string, "repo/.git/HEAD"), `${B}\n`);
    expect(strictwireCommit(from)).toBe(B);
  });
  it("a worktree: HEAD in its own git dir, refs in the common one", async () => {
    const from = await layout({
      "main/.git/refs/heads/topic": `${B}\n`,
      "main/.git/worktrees/w/HEAD": "ref: refs/heads/topic\n",
      "main/.git/worktrees/w/commondir": "../..\n",
      "repo/.git": "gitdir: ../main/.git/worktrees/w\n",
    });
    expect(strictwireCommit(from)).toBe(B);
  });
  it("none for an installed package (a repository above node_modules is the user's), or without git files", async () => {
    await layout({ "repo/.git/HEAD": `${A}\n` });
    const installed = join(dir as string, "repo", "node_modules", "@strictwire", "eval");
    await mkdir(installed, { recursive: true });
    expect(strictwireCommit(installed)).toBeUndefined();
    expect(strictwireCommit(join(dir as string, "repo", "packages", "eval"))).toBe(A);
    await writeFile(join(dir as string, "repo/.git/HEAD"), "ref: refs/heads/../../../etc\n");
    expect(strictwireCommit(join(dir as string, "repo", "packages", "eval"))).toBeUndefined();
  });
});
