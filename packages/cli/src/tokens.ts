/**
 * Token counts with o200k_base, the encoding of current OpenAI models, offline.
 * Loaded on demand: the tables take a second to load, and only inspect needs them.
 */
export type TokenCounter = (text: string) => number;

export async function tokenCounter(): Promise<TokenCounter> {
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  // Text such as "<|endoftext|>" in a description is ordinary text here, not a special token.
  const options = { disallowedSpecial: new Set<string>() };
  return (text) => countTokens(text, options);
}
