/** Your own tool: a Zod schema, compiled once per provider target, and its handler. */
import { compileCodec } from "@strictwire/codec";
import { z } from "zod";

export const UpdateProfile = z.object({
  userId: z.string().min(1).describe("The user's id"),
  displayName: z.string().min(1).optional().describe("Leave out to keep the display name"),
  bio: z.string().max(160).nullable().optional().describe("null clears the bio; leave out to keep it"),
});

export function updateProfileCodec(target: "openai" | "anthropic" | "gemini") {
  const compiled = compileCodec(UpdateProfile, {
    name: "update_profile",
    description: "Update a user's profile. Members left out stay unchanged; null clears a member.",
    target,
  });
  // Your own schema: a refusal here is a bug to fix at build time, and the feedback says how.
  if (!compiled.ok) throw new Error(compiled.error.feedback);
  return compiled.value;
}

/** The handler gets the ORIGINAL value: a member left out is absent, null is null. */
export function updateProfile(args: z.output<typeof UpdateProfile>): string {
  console.log(`handler update_profile received ${JSON.stringify(args)}`);
  const kept = (["displayName", "bio"] as const).filter((member) => !Object.hasOwn(args, member));
  return `profile ${args.userId} updated; kept: ${kept.join(", ") || "nothing"}`;
}
