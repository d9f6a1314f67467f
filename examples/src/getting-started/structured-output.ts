import { compileCodec, decodeOutput, outputFormat, streamOutput } from "@strictwire/codec";
import OpenAI from "openai";
import { z } from "zod";
import { startAnswerServer } from "../answer-server.js";

// The answer, as your code wants it: absent, null, a map and a union keep their meaning.
const Profile = z.object({
  displayName: z.string().optional(), // absent: the text names none
  bio: z.string().nullable(), // null: the text says there is none
  links: z.record(z.string(), z.string()),
  contact: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("email"), address: z.string() }),
    z.object({ kind: z.literal("phone"), number: z.string() }),
  ]),
});
const compiled = compileCodec(Profile, { name: "profile", target: "openai" });
if (!compiled.ok) throw new Error(compiled.error.message);
const codec = compiled.value;
const format = outputFormat(codec, "openai-chat"); // { response_format: { type: "json_schema", json_schema: { name, schema: wire, strict: true } } }
if (!format.ok) throw new Error(format.error.message);

// Offline: a local server answers with what a strict model writes (the wire form). Against the real API: new OpenAI().
const wire = codec.encode({ bio: null, links: { site: "ada.dev" }, contact: { kind: "email", address: "ada@x.org" } });
if (!wire.ok) throw new Error(wire.error.message);
const text = JSON.stringify(wire.value);
const server = await startAnswerServer({ kind: "answer", text, deltas: text.match(/.{1,16}/g) ?? [] });
const client = new OpenAI({ apiKey: "offline", baseURL: `${server.origin}/v1`, maxRetries: 0 });
const messages = [{ role: "user" as const, content: "Ada's profile: no bio; site ada.dev; mail ada@x.org." }];

const completion = await client.chat.completions.create({ model: "gpt-5", messages, ...format.value });
console.log(completion.choices[0]?.message.content); // the wire: a presence tag, an entry list
const answer = decodeOutput(codec, "openai-chat", completion); // a refusal, a cut or a broken answer is a typed error
console.log(answer.ok ? answer.value : answer.error.feedback);

const stream = await client.chat.completions.create({ model: "gpt-5", messages, stream: true, ...format.value });
const streamed = streamOutput(codec, "openai-chat");
for await (const chunk of stream) {
  for (const update of streamed.event(chunk)) {
    if (update.kind === "partial") console.log("partial", JSON.stringify(update.value)); // the source form, as it grows
    if (update.kind === "decoded") console.log("decoded", update.result.ok); // only once the provider ended the answer
  }
}
await server.close();
