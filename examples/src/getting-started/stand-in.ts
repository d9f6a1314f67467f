/**
 * The getting-started steps run offline: a local server (../replay-server.ts) answers like the provider with
 * two update_profile calls, one right and one wrong as a model might write it, then a final answer. These
 * are scripted replies, not a model's output.
 */
import { type RecordedProvider, type ReplayServer, startReplay } from "../replay-server.js";

/** The arguments text of the two calls, per target: optional members are tagged for openai, native otherwise. */
const CALLS = {
  openai: [
    '{"userId":"u1","displayName":{"state":"absent"},"bio":{"state":"present","value":null}}',
    // The usual mistake: a bare null where the presence tag belongs.
    '{"userId":"u1","displayName":{"state":"absent"},"bio":null}',
  ],
  anthropic: ['{"userId":"u1","bio":null}', '{"userId":"","bio":null}'],
} as const;

const ANSWER = "I cleared the bio of u1 and kept the display name.";

export function startStandIn(provider: RecordedProvider): Promise<ReplayServer> {
  const calls = (provider === "anthropic" ? CALLS.anthropic : CALLS.openai).map((args, i) => ({
    id: `call_${i + 1}`,
    args,
  }));
  const first =
    provider === "openai-responses"
      ? {
          id: "resp_1",
          object: "response",
          status: "completed",
          model: "gpt-5",
          output: calls.map((c) => ({
            id: `fc_${c.id}`,
            type: "function_call",
            status: "completed",
            call_id: c.id,
            name: "update_profile",
            arguments: c.args,
          })),
        }
      : provider === "openai-chat"
        ? {
            id: "chatcmpl-1",
            object: "chat.completion",
            model: "gpt-5",
            choices: [
              {
                index: 0,
                finish_reason: "tool_calls",
                message: {
                  role: "assistant",
                  content: null,
                  tool_calls: calls.map((c) => ({
                    id: c.id,
                    type: "function",
                    function: { name: "update_profile", arguments: c.args },
                  })),
                },
              },
            ],
          }
        : {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-6",
            stop_reason: "tool_use",
            content: calls.map((c) => ({
              type: "tool_use",
              id: c.id,
              name: "update_profile",
              input: JSON.parse(c.args),
            })),
            usage: { input_tokens: 1, output_tokens: 1 },
          };
  const last =
    provider === "openai-responses"
      ? {
          id: "resp_2",
          object: "response",
          status: "completed",
          model: "gpt-5",
          output: [
            {
              id: "msg_2",
              type: "message",
              status: "completed",
              role: "assistant",
              content: [{ type: "output_text", annotations: [], text: ANSWER }],
            },
          ],
        }
      : provider === "openai-chat"
        ? {
            id: "chatcmpl-2",
            object: "chat.completion",
            model: "gpt-5",
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: ANSWER } }],
          }
        : {
            id: "msg_2",
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-6",
            stop_reason: "end_turn",
            content: [{ type: "text", text: ANSWER }],
            usage: { input_tokens: 1, output_tokens: 1 },
          };
  const path =
    provider === "openai-responses"
      ? "/v1/responses"
      : provider === "openai-chat"
        ? "/v1/chat/completions"
        : "/v1/messages";
  return startReplay({
    provider,
    path,
    turns: [{ response: first }, { expectToolResults: calls.map((c) => c.id), response: last }],
  });
}
