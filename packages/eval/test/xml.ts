/**
 * A strict reader for the XML the chart writes: elements, attributes, text,
 * one optional declaration, comments. It refuses what is not well-formed
 * (unbalanced or crossed tags, unquoted or repeated attributes, a raw `<` or a
 * bare `&` in text or values, more than one root), and gives the tree, so a
 * test can read the numbers the picture draws.
 */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** The element's own text, entities decoded, its children's excluded. */
  text: string;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITY = /^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/;

function decode(raw: string, where: string): string {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === "<") throw new Error(`raw < in ${where}`);
    if (c !== "&") {
      out += c;
      continue;
    }
    const m = ENTITY.exec(raw.slice(i));
    if (m === null) throw new Error(`bare & in ${where}`);
    const e = m[1] as string;
    out += e.startsWith("#x")
      ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
      : e.startsWith("#")
        ? String.fromCodePoint(Number(e.slice(1)))
        : ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[e];
    i += m[0].length - 1;
  }
  return out;
}

export function parseXml(source: string): XmlElement {
  let i = 0;
  if (source.startsWith("<?xml")) {
    const end = source.indexOf("?>");
    if (end < 0) throw new Error("unterminated declaration");
    i = end + 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < source.length) {
    const lt = source.indexOf("<", i);
    const chunk = source.slice(i, lt < 0 ? source.length : lt);
    if (stack.length === 0) {
      if (chunk.trim() !== "") throw new Error("text outside the root");
    } else (stack[stack.length - 1] as XmlElement).text += decode(chunk, "text");
    if (lt < 0) break;
    i = lt;
    if (source.startsWith("<!--", i)) {
      const end = source.indexOf("-->", i);
      if (end < 0) throw new Error("unterminated comment");
      i = end + 3;
      continue;
    }
    if (source.startsWith("</", i)) {
      const name = NAME.exec(source.slice(i + 2))?.[0];
      const close = source.indexOf(">", i);
      const open = stack.pop();
      if (name === undefined || close < 0 || source.slice(i + 2 + name.length, close).trim() !== "")
        throw new Error(`bad end tag at ${i}`);
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name ?? "nothing"}>`);
      i = close + 1;
      continue;
    }
    const name = NAME.exec(source.slice(i + 1))?.[0];
    if (name === undefined) throw new Error(`bad tag at ${i}`);
    i += 1 + name.length;
    const attrs: Record<string, string> = {};
    for (;;) {
      const ws = /^\s*/.exec(source.slice(i))?.[0] ?? "";
      i += ws.length;
      if (source.startsWith("/>", i) || source.startsWith(">", i)) break;
      if (ws === "") throw new Error(`attributes must be separated by space at ${i}`);
      const attr = /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(source.slice(i));
      if (attr === null) throw new Error(`bad attribute at ${i}: ${source.slice(i, i + 30)}`);
      const key = attr[1] as string;
      if (Object.hasOwn(attrs, key)) throw new Error(`attribute ${key} repeated`);
      attrs[key] = decode(attr[3] ?? attr[4] ?? "", `attribute ${key}`);
      i += attr[0].length;
    }
    const element: XmlElement = { name, attrs, children: [], text: "" };
    if (stack.length > 0) (stack[stack.length - 1] as XmlElement).children.push(element);
    else if (root === undefined) root = element;
    else throw new Error("a second root element");
    if (source.startsWith("/>", i)) i += 2;
    else {
      i += 1;
      stack.push(element);
    }
  }
  if (stack.length > 0) throw new Error(`<${(stack[stack.length - 1] as XmlElement).name}> is never closed`);
  if (root === undefined) throw new Error("no root element");
  return root;
}

/** Every element of the tree, depth first. */
export function elements(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap(elements)];
}
