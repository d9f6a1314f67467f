/** o200k_base token counts (the GPT-4o / GPT-4.1 / o-series encoding). */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

const cache = new Map<string, number>();

export function tokens(text: string): number {
  let n = cache.get(text);
  if (n === undefined) {
    try {
      n = countTokens(text);
    } catch {
      // Text that spells a special token: count it as ordinary text.
      n = countTokens(text.replaceAll("<|", "< |"));
    }
    if (cache.size > 50_000) cache.clear();
    cache.set(text, n);
  }
  return n;
}
