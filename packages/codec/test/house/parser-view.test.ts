/**
 * The stream decoder reads the incremental parser through one view of it
 * (`ParserView`, parse/incremental.ts), not through the class: a file under
 * src/ other than the parser's own imports from parse/incremental.ts only the
 * view's types and the parser's constructor, and uses the constructor only to
 * make a parser held as a `ParserView` (never as a type, never to read a
 * member of it). The view holds what the decoder reads and nothing more.
 * Read by TypeScript's own parser.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { importsOf, SRC, sourceGraph } from "./graph.js";

const PARSER = "parse/incremental.ts";
const DECODER = "stream/decoder.ts";
/** What a reader of the parser may import: the constructor, and the view with the types its members use. */
const ALLOWED = new Set(["IncrementalParser", "ParserView", "Pushed", "Reading", "PartialResult"]);

function sourceOf(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(SRC, file), "utf8"), ts.ScriptTarget.Latest, true);
}

function each(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => each(child, visit));
}

/** The breaches of the rule in one file: each a short sentence with its line. */
function breaches(file: string): string[] {
  const source = sourceOf(file);
  const out: string[] = [];
  const line = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  // The class members and variables declared as the view: a new parser may be held only there.
  const heldAsView = new Set<string>();
  each(source, (node) => {
    if (
      (ts.isPropertyDeclaration(node) || ts.isVariableDeclaration(node)) &&
      node.type !== undefined &&
      ts.isTypeReferenceNode(node.type) &&
      node.type.typeName.getText(source) === "ParserView"
    ) {
      heldAsView.add(node.name.getText(source));
    }
  });
  each(source, (node) => {
    if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      importsOf(file, `import "${node.moduleSpecifier.text}";`).includes(PARSER)
    ) {
      out.push(`${line(node)}: re-exports the parser's module`);
      return;
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!importsOf(file, `import "${node.moduleSpecifier.text}";`).includes(PARSER)) return;
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      if (clause === undefined || clause.name !== undefined || bindings === undefined || !ts.isNamedImports(bindings)) {
        out.push(`${line(node)}: imports the parser's module other than by name`);
        return;
      }
      for (const element of bindings.elements) {
        const name = (element.propertyName ?? element.name).text;
        if (!ALLOWED.has(name)) out.push(`${line(element)}: imports ${name}`);
        else if (name === "IncrementalParser" && (element.isTypeOnly || clause.isTypeOnly)) {
          out.push(`${line(element)}: imports the parser's class as a type`);
        }
      }
      return;
    }
    if (!ts.isIdentifier(node) || node.text !== "IncrementalParser") return;
    const parent = node.parent;
    if (ts.isImportSpecifier(parent)) return;
    if (!ts.isNewExpression(parent) || parent.expression !== node) {
      out.push(`${line(node)}: names the parser's class other than to make one`);
      return;
    }
    // `this.x = new IncrementalParser(…)` with `x: ParserView`, or `const x: ParserView = new IncrementalParser(…)`.
    const holder = parent.parent;
    const held =
      ts.isBinaryExpression(holder) &&
      holder.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      holder.right === parent &&
      ts.isPropertyAccessExpression(holder.left) &&
      holder.left.expression.kind === ts.SyntaxKind.ThisKeyword
        ? heldAsView.has(holder.left.name.text)
        : ts.isVariableDeclaration(holder) &&
          holder.initializer === parent &&
          heldAsView.has(holder.name.getText(source));
    if (!held) out.push(`${line(node)}: a parser not held as a ParserView`);
  });
  return out;
}

/** The view's members, as the interface declares them. */
function viewMembers(): string[] {
  const names: string[] = [];
  each(sourceOf(PARSER), (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === "ParserView") {
      for (const member of node.members) if (member.name !== undefined) names.push(member.name.getText());
    }
  });
  return names.sort();
}

/** The members the decoder reads of its parser (`this.parser.x`, or `parser.x` of a local holding it). */
function decoderReads(): string[] {
  const source = sourceOf(DECODER);
  const names = new Set<string>();
  each(source, (node) => {
    if (!ts.isPropertyAccessExpression(node)) return;
    const target = node.expression;
    const isParser =
      (ts.isIdentifier(target) && target.text === "parser") ||
      (ts.isPropertyAccessExpression(target) &&
        target.expression.kind === ts.SyntaxKind.ThisKeyword &&
        target.name.text === "parser");
    if (isParser) names.add(node.name.text);
  });
  return [...names].sort();
}

describe("house: the stream decoder reads the parser through its view", () => {
  test("every file that reads the parser imports only the view and the constructor, and holds a parser as the view", () => {
    const readers = [...sourceGraph()].filter(([file, imports]) => file !== PARSER && imports.includes(PARSER));
    expect(readers.map(([file]) => file)).toContain(DECODER);
    expect(readers.flatMap(([file]) => breaches(file))).toEqual([]);
  });

  test("the view is what the decoder reads, no more", () => {
    const members = viewMembers();
    expect(members.length).toBeGreaterThan(0);
    expect(decoderReads()).toEqual(members);
  });
});
