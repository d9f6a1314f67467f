/**
 * The command line. Commander parses; each command lives in src/commands and
 * returns its exit code. Commander's own usage errors exit 2 like ours.
 * Commands load on demand: help and usage errors should not wait for the
 * validators, and compile has no use for the classifier.
 */
import { readFileSync } from "node:fs";
import { DEFAULT_MAX_RESPONSE_BYTES } from "@strictwire/codec/http";
import { Command, CommanderError, Option } from "commander";
import type { CheckFlags } from "./commands/check.js";
import type { ClassifyFlags } from "./commands/classify.js";
import type { CompileCommandFlags } from "./commands/compile.js";
import type { DecodeFlags } from "./commands/decode.js";
import type { EvalFlags } from "./commands/eval.js";
import { addEvalOptions } from "./commands/eval-options.js";
import type { McpProxyFlags } from "./commands/mcp-proxy.js";
import type { ProbeFlags } from "./commands/probe.js";
import { EMIT_NAMES } from "./emit/emitter.js";
import { OUTPUT_FORMAT_NAMES } from "./emit/output-format.js";
import { EXIT_OK, EXIT_USAGE, type ExitCode, type Failure } from "./failure.js";
import { type Io, processIo } from "./io.js";
import { addCompileOptions, type CompileFlags, presenceOption, schemaDirOption, targetOption } from "./options.js";
import { PROGRAM, Reporter, usageHint } from "./report.js";
import { colourAllowed } from "./style.js";

interface JsonFlag {
  readonly json?: boolean;
}

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let exit: ExitCode = EXIT_OK;
  const program = buildProgram(io, (code) => {
    exit = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error, argv, io);
    throw error;
  }
  return exit;
}

/** Help asked for and version are successes; every other stop commander makes is a usage error. */
function commanderExit(error: CommanderError, argv: readonly string[], io: Io): ExitCode {
  if (error.exitCode === 0) return EXIT_OK;
  // Commander has already written its message; --json still owes stdout its one document.
  if (argv.includes("--json") && error.code !== "commander.help") {
    const message = error.message.replace(/^error: /, "");
    const failure: Failure = { exit: EXIT_USAGE, error: { code: "usage", path: "", message, feedback: message } };
    io.stdout.write(`${JSON.stringify({ ok: false, error: failure.error })}\n`);
  }
  return EXIT_USAGE;
}

function buildProgram(io: Io, setExit: (code: ExitCode) => void): Command {
  const reporter = (flags: JsonFlag, command: string): Reporter => new Reporter(io, flags.json === true, command);
  const program = new Command()
    .name(PROGRAM)
    .description("Reversible schema codec for strict LLM tool calling.")
    .version(version(), "-V, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`${PROGRAM}: ${text}`),
      getOutHasColors: () => colourAllowed(io.stdout, io.env),
      getErrHasColors: () => colourAllowed(io.stderr, io.env),
    })
    .showHelpAfterError(usageHint());

  const json = (): Option => new Option("--json", "print the result, or the error, as JSON on stdout");

  addCompileOptions(
    program
      .command("compile")
      .summary("compile JSON Schemas into bundles")
      .description(
        "Compile a JSON Schema into a bundle: the strict wire schema to give the model, and the plan to decode its calls.",
      )
      .argument(
        "[schemas...]",
        "a schema file, or - or nothing for standard input; with --out-dir, files, directories or quoted globs",
      )
      .option("-o, --out <bundle.json>", "write the bundle to this file (default: standard output)")
      .option("--out-dir <dir>", "compile many schemas, writing <dir>/<basename>.bundle.json for each")
      .addOption(schemaDirOption()),
    true,
  )
    .addOption(new Option("--emit <kind>", "what to write").choices(EMIT_NAMES).default("bundle"))
    .addOption(
      new Option(
        "--output-format <api>",
        "write the request member(s) asking this API for an answer held to the wire (structured outputs), to spread into the request body",
      ).choices(OUTPUT_FORMAT_NAMES),
    )
    .addOption(json())
    .action(async (schemas: string[], flags: CompileCommandFlags & JsonFlag) => {
      const { runCompile } = await import("./commands/compile.js");
      setExit(await runCompile(schemas, flags, reporter(flags, "compile")));
    });

  program
    .command("encode")
    .summary("original value -> wire value")
    .description("Encode a value of the original schema into the wire value a model would write, printed as JSON.")
    .argument("<bundle.json>", "the bundle")
    .argument("[value.json]", "the value; - or nothing for standard input")
    .addOption(json())
    .action(async (bundle: string, value: string | undefined, flags: JsonFlag) => {
      const { runEncode } = await import("./commands/encode.js");
      setExit(await runEncode(bundle, value, reporter(flags, "encode")));
    });

  program
    .command("decode")
    .summary("wire arguments text -> original value")
    .description("Decode the arguments text a model wrote, byte for byte, into the original value, printed as JSON.")
    .argument("<bundle.json>", "the bundle")
    .argument("[arguments.txt]", "the arguments text; - or nothing for standard input")
    .option(
      "--stream",
      'read the text as it arrives and print {"partial":…} on its own line each time the partial value changes (display only, never validated), then the result; a text that can no longer be valid is refused at once',
    )
    .addOption(json())
    .action(async (bundle: string, args: string | undefined, flags: DecodeFlags & JsonFlag) => {
      const { runDecode } = await import("./commands/decode.js");
      setExit(await runDecode(bundle, args, flags, reporter(flags, "decode")));
    });

  addCompileOptions(
    program
      .command("inspect")
      .summary("sizes, relaxed constraints, and how each member travels")
      .description(
        "Show a schema's or a bundle's wire cost (bytes and o200k_base tokens), the constraints left to the final validation, and how each member travels.",
      )
      .argument("[file]", "a schema or a bundle; - or nothing for standard input"),
    false,
  )
    .addOption(json())
    .action(async (file: string | undefined, flags: CompileFlags & JsonFlag) => {
      const { runInspect } = await import("./commands/inspect.js");
      setExit(await runInspect(file, flags, reporter(flags, "inspect")));
    });

  program
    .command("check")
    .summary("does this tool set fit the target's limits")
    .description(
      "Check that the tools of one request fit the target's limits: each wire schema's, and the caps counted across all of them. Exits 1 when a limit is crossed.",
    )
    .argument("[bundles...]", "the bundles of one request's tools")
    .option(
      "--answer <bundle.json>",
      "the bundle of the request's answer format (structured outputs): its schema counts in the per-request caps with the tools",
    )
    .addOption(targetOption())
    .addOption(json())
    .action(async (bundles: string[], flags: CheckFlags & JsonFlag) => {
      const { runCheck } = await import("./commands/check.js");
      setExit(await runCheck(bundles, flags, reporter(flags, "check")));
    });

  program
    .command("classify")
    .summary("which stored tool calls a dispatcher can use, and why not")
    .description(
      "Read stored model responses (a file, or response ids fetched with OPENAI_API_KEY) and report, for every tool call, whether a dispatcher can use it and, when not, why and how to repair it. Exits 1 when there are findings.",
    )
    .option("--responses <file>", "stored responses: JSON, a JSON array, or JSON lines; - for standard input")
    .option("--ids <file>", "response ids, one per line, fetched with OPENAI_API_KEY")
    .option(
      "--resume <file>",
      "with --ids: skip the ids listed in this file and add each id classified, so a stopped run carries on",
    )
    .option(
      "--bundles <dir>",
      "bundles to decode calls of strictwire tools with; the tool list of responses that carry none",
    )
    .option("--show-all", "also list the calls that can be used")
    .option(
      "--max-response-bytes <n>",
      `with --ids: bytes of one stored response read at most (default ${DEFAULT_MAX_RESPONSE_BYTES})`,
    )
    .option(
      "--workers <n>",
      "threads to classify --responses on (default: one per CPU; 1 classifies in the main thread)",
    )
    .addOption(json())
    .action(async (flags: ClassifyFlags & JsonFlag) => {
      const { runClassifyCommand } = await import("./commands/classify.js");
      setExit(await runClassifyCommand(flags, reporter(flags, "classify")));
    });

  program
    .command("mcp-proxy")
    .summary("strict tool calling for any MCP server")
    .description(
      "Serve MCP over stdio in front of an MCP server (started from the command after --, or reached with --url): its tools are listed with strict wire schemas, and their calls decoded before the server sees them.",
    )
    .argument("[command...]", "the upstream server's command and its arguments, after --")
    .addOption(targetOption())
    .addOption(presenceOption())
    .option("--url <url>", "reach the upstream server over Streamable HTTP instead of starting it")
    .option("--max-pages <n>", "tools/list pages read at most (default 1000)")
    .option("--max-tools <n>", "tools read at most (default 10000)")
    .option("--max-list-bytes <n>", "bytes of tool list JSON read at most (default 33554432)")
    .option("--list-timeout <ms>", "time the whole tool listing may take, every page included (default 30000)")
    .option(
      "--init-timeout <ms>",
      "time the upstream may take to answer initialize before the proxy gives up, exit 2 (default 60000)",
    )
    .option(
      "--max-notifications <n>",
      "notifications forwarded per second at most, each way (the upstream's to the client, the client's to the upstream); the rest are dropped, list changes held to the last (default 100)",
    )
    .option(
      "--max-client-requests <n>",
      "the upstream's requests of the client passed on and unanswered at once, at most, of each kind (sampling, elicitation, roots); past it they are refused (default 8)",
    )
    .option(
      "--request-timeout <ms>",
      "time the upstream may take to answer a forwarded request before the client gets an error (default: none)",
    )
    .option("--compile-timeout <ms>", "time one tool's compile may take before it passes through (default 10000)")
    .option(
      "--max-schema-bytes <n>",
      "a tool's input schema larger than this passes through uncompiled (default 1048576)",
    )
    .option("--compile-workers <n>", "worker threads compiling tools (default: CPUs, at most 4)")
    .option("--decode-timeout <ms>", "time one call's decode may take before the call is refused (default 5000)")
    .option("--compile-memory <mb>", "heap one compile worker may hold before it is stopped (default 512)")
    .option(
      "--max-message-bytes <n>",
      "with --url: a reply or event from the upstream larger than this ends the session (default 33554432)",
    )
    .action(async (command: string[], flags: McpProxyFlags) => {
      const { runMcpProxy } = await import("./commands/mcp-proxy.js");
      setExit(await runMcpProxy(command, flags, io));
    });

  const evalCommand = program
    .command("eval")
    .summary("intent benchmark: your model, your tools, each arm against the plain control")
    .description(
      "Run a suite of scenarios against a model endpoint in several arms (the plain control and strictwire's wire forms) and score each intent exactly. The key comes from STRICTWIRE_API_KEY, or OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY.",
    );
  addEvalOptions(evalCommand)
    .addOption(json())
    .action(async (flags: EvalFlags & JsonFlag) => {
      const { runEvalCommand } = await import("./commands/eval.js");
      setExit(await runEvalCommand(flags, reporter(flags, "eval")));
    });

  program
    .command("probe")
    .summary("ask a live endpoint whether it takes each tool in strict mode")
    .description(
      "Send one minimal request per tool (strict, its call forced, a tiny output cap), and one with every tool together, and report what the provider said: accepted, or refused in its own words. The key comes from STRICTWIRE_API_KEY, or OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY.",
    )
    .argument("<bundles...>", "bundle files, one per tool (- for standard input)")
    .option("--api <api>", "chat, responses, anthropic or gemini", "chat")
    .option("--endpoint <url>", "the API's base URL (default: the provider's)")
    .option("--model <name>", "the model to probe")
    .option("--max-requests <n>", "stop before sending more requests than this (retries count)")
    .option("--max-tokens <n>", "maximum output tokens per request", "16")
    .option("--timeout <ms>", "per request", "60000")
    .option("--retries <n>", "retries on 429, 5xx and timeouts", "2")
    .option(
      "--output-format",
      "probe each bundle as a structured-output answer format instead of a tool: one request each, carrying only that format",
    )
    .option("--max-response-bytes <n>", "bytes of one response body read at most", String(DEFAULT_MAX_RESPONSE_BYTES))
    .addOption(json())
    .action(async (files: string[], flags: ProbeFlags & JsonFlag) => {
      const { runProbeCommand } = await import("./commands/probe.js");
      setExit(await runProbeCommand(files, flags, reporter(flags, "probe")));
    });

  // Commander's usage errors point at the command's own help, as the commands' own usage errors do.
  for (const command of program.commands) command.showHelpAfterError(usageHint(command.name()));
  program.addHelpText("after", EXAMPLES);
  return program;
}

const EXAMPLES = `
Exit codes: 0 success, 1 the input was rejected, 2 usage or environment error.

Examples:
  ${PROGRAM} compile settings.json -o settings.bundle.json
  ${PROGRAM} compile 'schemas/*.json' --out-dir bundles
  ${PROGRAM} encode settings.bundle.json value.json
  ${PROGRAM} decode settings.bundle.json arguments.txt
  ${PROGRAM} decode --stream settings.bundle.json -
  ${PROGRAM} inspect settings.json --presence compact
  ${PROGRAM} compile settings.json --emit module -o settings.bundle.mjs
  ${PROGRAM} check bundles/*.bundle.json --target anthropic
  ${PROGRAM} mcp-proxy --target anthropic -- npx @modelcontextprotocol/server-filesystem /tmp`;

function version(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    const v = typeof pkg === "object" && pkg !== null ? (pkg as { version?: unknown }).version : undefined;
    return typeof v === "string" ? v : "unknown";
  } catch {
    return "unknown";
  }
}
