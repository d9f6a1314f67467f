/** The compile flags, shared by compile and inspect, and their translation into CompileOptions. */
import {
  ABSENCE_SPELLINGS,
  type CompileOptions,
  INPUT_DIALECTS,
  TAG_SPELLING_OPTIONS,
  TARGET_NAMES,
} from "@strictwire/codec";
import { type Command, Option } from "commander";

/** The flags carry compile's own options by name (one definition), with --schema-dir's documents. */
export interface CompileFlags
  extends Pick<
    CompileOptions,
    "name" | "description" | "target" | "presence" | "tags" | "openObjects" | "factored" | "dialect" | "strict"
  > {
  /** Documents read from --schema-dir, keyed by file name. */
  readonly resources?: Readonly<Record<string, unknown>>;
}

/** compile's --schema-dir: the documents a schema may refer to, never fetched. */
export const schemaDirOption = (): Option =>
  new Option(
    "--schema-dir <dir>",
    "the *.json files of this directory are documents the schema may refer to: by file name relative to the schema's $id, or by their own $id",
  );

export const targetOption = (): Option =>
  new Option("--target <target>", "the provider whose strict mode the wire schema is for").choices(TARGET_NAMES);

/** --presence: how absence is spelled where the target has no native optional members (the codec's AbsenceSpelling). */
export const presenceOption = (): Option =>
  new Option("--presence <presence>", "how optional members travel: tagged, or compact (null means absent)").choices([
    ...ABSENCE_SPELLINGS,
  ]);

/** Adds the flags that shape a compile; `naming` adds --name and --description too. */
export function addCompileOptions(command: Command, naming: boolean): Command {
  if (naming) {
    command
      .option("--name <tool>", "tool name (default: the schema file's name)")
      .option("--description <text>", "tool description (default: the schema's own)");
  }
  return command
    .addOption(targetOption())
    .addOption(presenceOption())
    .addOption(
      new Option(
        "--tags <spelling>",
        'how presence tags are spelled: state ({"state":"absent"}, the default), or minimal ({} and {"value":…}, fewer tokens)',
      ).choices([...TAG_SPELLING_OPTIONS]),
    )
    .addOption(
      new Option("--open-objects <policy>", "objects with undeclared members: close them, or preserve them").choices([
        "close",
        "preserve",
      ]),
    )
    .option("--factored", "share repeated subschemas through wire $defs")
    .addOption(
      new Option(
        "--strict <policy>",
        "a tool over the target's limits: required (refuse it, the default), or auto (send it with strict mode OFF, with a warning; decode still checks every call)",
      ).choices(["required", "auto"]),
    )
    .addOption(
      new Option("--dialect <dialect>", "read the schema in a dialect that is not quite JSON Schema").choices([
        ...INPUT_DIALECTS,
      ]),
    );
}

/**
 * The library's options for these flags; `fallbackName` is used when --name
 * is not given. Targets and dialects are the codec's to accept or refuse
 * (invalid-options, exit 2), so that one it gains needs no change here.
 */
export function compileOptions(flags: CompileFlags, fallbackName: string | undefined): CompileOptions {
  const name = flags.name ?? fallbackName;
  return {
    ...(name !== undefined ? { name } : {}),
    ...(flags.description !== undefined ? { description: flags.description } : {}),
    ...(flags.target !== undefined ? { target: flags.target } : {}),
    ...(flags.presence !== undefined ? { presence: flags.presence } : {}),
    ...(flags.tags !== undefined ? { tags: flags.tags } : {}),
    ...(flags.openObjects !== undefined ? { openObjects: flags.openObjects } : {}),
    ...(flags.factored === true ? { factored: true } : {}),
    ...(flags.dialect !== undefined ? { dialect: flags.dialect } : {}),
    ...(flags.strict !== undefined ? { strict: flags.strict } : {}),
    ...(flags.resources !== undefined ? { resources: flags.resources } : {}),
  };
}
