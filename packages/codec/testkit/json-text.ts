/**
 * A JSON text cut anywhere, read by a minimal lexer (strings and escapes
 * only, no validation): whether it ends inside a string, and the closers of
 * the containers it leaves open, innermost first. Tests use it as an oracle
 * that shares no code with the parsers.
 */
export function leftOpen(text: string): { readonly inString: boolean; readonly closers: string } {
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[") open.push("]");
    else if (c === "{") open.push("}");
    else if (c === "]" || c === "}") open.pop();
  }
  return { inString, closers: open.reverse().join("") };
}
