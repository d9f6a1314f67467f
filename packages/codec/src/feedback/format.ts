/**
 * Issues as text: one formatter for the model (`feedback`, at most 700
 * characters, the most useful issue first) and one for logs (`message`).
 */
import type { Issue } from "../errors.js";

export const FEEDBACK_LIMIT = 700;

function line(i: Issue): string {
  return `${i.path === "" ? "(root)" : i.path}: ${i.message}`;
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * `head`, the issues that fit, "and N more", `tail`; never longer than the limit.
 * Each issue is cut so that one long one cannot crowd out the rest.
 */
export function feedbackText(head: string, issues: readonly Issue[], tail: string, limit = FEEDBACK_LIMIT): string {
  const room = limit - head.length - tail.length - 2;
  const lines: string[] = [];
  let used = 0;
  for (let k = 0; k < issues.length; k++) {
    const more = issues.length - k - 1;
    const reserve = more > 0 ? ` and ${more} more.`.length + 2 : 0;
    const text = cut(line(issues[k]!), Math.max(80, Math.floor(room * 0.6)));
    if (used + text.length + 2 + reserve > room && lines.length > 0) break;
    lines.push(text);
    used += text.length + 2;
  }
  const hidden = issues.length - lines.length;
  const body = lines.join("; ") + (hidden > 0 ? `; and ${hidden} more` : "");
  return cut(`${head} ${body}. ${tail}`.trim(), limit);
}

/** Every issue, one after another, for a person reading logs. */
export function messageText(head: string, issues: readonly Issue[], limit = 20): string {
  const shown = issues.slice(0, limit).map(line);
  if (issues.length > limit) shown.push(`and ${issues.length - limit} more`);
  return `${head}: ${shown.join("; ")}`;
}

/** The issue as handed out: without the validator's internals. */
export function publicIssue(i: Issue): Issue {
  return { path: i.path, ...(i.keyword !== undefined ? { keyword: i.keyword } : {}), message: i.message };
}
