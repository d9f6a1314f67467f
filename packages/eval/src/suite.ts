/**
 * A suite is a folder: scenarios.json (what the model is shown: workflows with
 * their tool, policy and state, and the instructions) and expected.json (the
 * oracle). The two are read into separate types, and nothing that builds a
 * request ever receives an `Expected`, so the oracle cannot leak into a body.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Result } from "@strictwire/codec";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Action = "update" | "clarify" | "reject";

export interface Tool {
  readonly name: string;
  readonly description?: string;
  readonly parameters: JsonObject;
}

export interface Workflow {
  readonly id: string;
  readonly tool: Tool;
  /** What the state is, in words ("profile settings"). */
  readonly resource: string;
  /** The policy text the model is shown. */
  readonly policy: string;
  /** The default stored state for this workflow's scenarios. */
  readonly state: JsonObject;
}

export interface Scenario {
  readonly id: string;
  readonly workflow: string;
  readonly category: string;
  readonly instruction: string;
  readonly state: JsonObject;
}

export interface Expected {
  readonly action: Action;
  /** For `update`: the exact arguments, member presence included. */
  readonly arguments?: JsonObject;
}

export interface Suite {
  readonly dir: string;
  /** The files it was read from (scenarios.json, each tool file), as named: outputs must not replace them. */
  readonly files: readonly string[];
  readonly workflows: ReadonlyMap<string, Workflow>;
  readonly scenarios: readonly Scenario[];
}

export interface Oracle {
  readonly expected: ReadonlyMap<string, Expected>;
}

export interface SuiteError {
  readonly code: "invalid-suite";
  readonly path: string;
  readonly message: string;
  readonly feedback: string;
}

/** The suite shipped with the package. */
export const BUNDLED_SUITE = fileURLToPath(new URL("../suites/core", import.meta.url));

const MAX_FILE = 4_000_000;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

class SuiteFault {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}
}

function need(condition: boolean, path: string, message: string): asserts condition {
  if (!condition) throw new SuiteFault(path, message);
}

/**
 * A suite file, read only if it is a regular file and only up to the cap: it
 * is opened without blocking (a FIFO would otherwise wait for a writer
 * forever), checked, and counted as it is read (a size from stat can lie).
 */
async function readJsonFile(file: string): Promise<unknown> {
  let handle: FileHandle | undefined;
  let text: string;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    need((await handle.stat()).isFile(), file, "not a regular file (a FIFO, device or directory is refused)");
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(65_536), 0, 65_536, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      need(total <= MAX_FILE, file, `larger than ${MAX_FILE} bytes`);
      chunks.push(buffer.subarray(0, bytesRead));
    }
    text = Buffer.concat(chunks).toString("utf8");
  } catch (error) {
    if (error instanceof SuiteFault) throw error;
    const code = (error as { code?: string }).code ?? "unreadable";
    throw new SuiteFault(file, `cannot read it (${code === "ENOENT" ? "no such file" : code})`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SuiteFault(file, `not JSON (${(error as Error).message})`);
  }
}

const within = (dir: string, path: string): boolean => {
  const r = relative(dir, path);
  return r !== "" && !isAbsolute(r) && r.split(sep)[0] !== "..";
};

/** A tool file named by the suite, refused unless it is inside the suite folder, symbolic links followed. */
async function insideSuite(root: string, name: string, at: string): Promise<string> {
  const file = resolve(root, name);
  need(!isAbsolute(name) && within(root, file), at, `${JSON.stringify(name)} is outside the suite folder`);
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    return file; // reading it says why it cannot be read
  }
  const realRoot = await realpath(root).catch(() => root);
  need(within(realRoot, real), at, `${JSON.stringify(name)} leads outside the suite folder`);
  return file;
}

function fail(fault: SuiteFault): { ok: false; error: SuiteError } {
  const message = `${fault.path}: ${fault.message}`;
  return { ok: false, error: { code: "invalid-suite", path: fault.path, message, feedback: message } };
}

/**
 * The suite folder as the kernel reaches it: path.resolve would cancel "link/.." by spelling and read
 * another folder. A folder that cannot be found stays as spelled: reading in it says why.
 */
const suiteRoot = (dir: string): Promise<string> => realpath(dir).catch(() => resolve(dir));

/** Reads what the model may see. Never reads expected.json. */
export async function loadSuite(dir: string): Promise<Result<Suite, SuiteError>> {
  const root = await suiteRoot(dir);
  try {
    const file = join(root, "scenarios.json");
    const doc = await readJsonFile(file);
    need(isObject(doc), file, "must be an object with workflows and scenarios");
    const rawWorkflows = doc.workflows;
    need(isObject(rawWorkflows), `${file}#/workflows`, "must be an object keyed by workflow id");
    const workflows = new Map<string, Workflow>();
    const files = [file];
    for (const [id, w] of Object.entries(rawWorkflows)) {
      const at = `${file}#/workflows/${id}`;
      need(isObject(w), at, "must be an object");
      need(typeof w.tool === "string", `${at}/tool`, "must name a tool file relative to the suite");
      need(typeof w.policy === "string", `${at}/policy`, "must be the policy text");
      need(w.state === undefined || isObject(w.state), `${at}/state`, "must be an object");
      const toolFile = await insideSuite(root, w.tool, `${at}/tool`);
      const tool = await readJsonFile(toolFile);
      files.push(toolFile);
      need(isObject(tool), toolFile, "must be {name, description?, parameters}");
      need(
        typeof tool.name === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(tool.name),
        `${toolFile}#/name`,
        "must be a tool name of [A-Za-z0-9_-]",
      );
      need(isObject(tool.parameters), `${toolFile}#/parameters`, "must be a JSON Schema object");
      need(
        tool.description === undefined || typeof tool.description === "string",
        `${toolFile}#/description`,
        "must be a string",
      );
      workflows.set(id, {
        id,
        tool: {
          name: tool.name,
          parameters: tool.parameters,
          ...(typeof tool.description === "string" ? { description: tool.description } : {}),
        },
        resource: typeof w.resource === "string" ? w.resource : "resource",
        policy: w.policy,
        state: isObject(w.state) ? w.state : {},
      });
    }
    need(Array.isArray(doc.scenarios) && doc.scenarios.length > 0, `${file}#/scenarios`, "must be a non-empty array");
    const scenarios: Scenario[] = [];
    const seen = new Set<string>();
    doc.scenarios.forEach((s, i) => {
      const at = `${file}#/scenarios/${i}`;
      need(isObject(s), at, "must be an object");
      need(typeof s.id === "string" && s.id !== "" && !seen.has(s.id), `${at}/id`, "must be a unique non-empty string");
      need(typeof s.workflow === "string" && workflows.has(s.workflow), `${at}/workflow`, "must name a workflow");
      need(
        typeof s.instruction === "string" && s.instruction !== "",
        `${at}/instruction`,
        "must be a non-empty string",
      );
      need(s.state === undefined || isObject(s.state), `${at}/state`, "must be an object");
      seen.add(s.id);
      const workflow = workflows.get(s.workflow) as Workflow;
      scenarios.push({
        id: s.id,
        workflow: s.workflow,
        category: typeof s.category === "string" ? s.category : "uncategorised",
        instruction: s.instruction,
        state: isObject(s.state) ? s.state : workflow.state,
      });
    });
    return { ok: true, value: { dir: root, files, workflows, scenarios } };
  } catch (error) {
    if (error instanceof SuiteFault) return fail(error);
    throw error;
  }
}

const ACTIONS: ReadonlySet<string> = new Set<Action>(["update", "clarify", "reject"]);

/** Reads the oracle; every scenario must have exactly one answer. */
export async function loadOracle(dir: string, suite: Suite): Promise<Result<Oracle, SuiteError>> {
  const file = join(await suiteRoot(dir), "expected.json");
  try {
    const doc = await readJsonFile(file);
    need(isObject(doc) && isObject(doc.expected), file, "must be {expected: {<scenario id>: {action, arguments?}}}");
    const expected = new Map<string, Expected>();
    for (const [id, e] of Object.entries(doc.expected)) {
      const at = `${file}#/expected/${id}`;
      need(
        isObject(e) && typeof e.action === "string" && ACTIONS.has(e.action),
        at,
        "needs action update, clarify or reject",
      );
      need(
        e.action !== "update" || isObject(e.arguments),
        `${at}/arguments`,
        "an update needs the exact arguments object",
      );
      expected.set(id, { action: e.action as Action, ...(isObject(e.arguments) ? { arguments: e.arguments } : {}) });
    }
    for (const s of suite.scenarios)
      need(expected.has(s.id), `${file}#/expected/${s.id}`, "missing: every scenario needs an answer");
    const known = new Set(suite.scenarios.map((s) => s.id));
    for (const id of expected.keys()) need(known.has(id), `${file}#/expected/${id}`, "no scenario has this id");
    return { ok: true, value: { expected } };
  } catch (error) {
    if (error instanceof SuiteFault) return fail(error);
    throw error;
  }
}

/** JSON with object keys sorted, so the digest is of the content, not its layout. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** sha256 of everything a run depends on: the workflows (tools, policies, states), the scenarios and the oracle. */
export function suiteDigest(suite: Suite, oracle: Oracle): string {
  const doc = {
    workflows: [...suite.workflows.values()],
    scenarios: suite.scenarios,
    expected: Object.fromEntries(oracle.expected),
  };
  return `sha256:${createHash("sha256").update(canonical(doc)).digest("hex")}`;
}
