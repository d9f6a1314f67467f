/** The human form of an inspection: a header, a size table, the relaxed constraints, and the travel tree. */
import { type Inspection, type RelaxedConstraint, type Size, type TravelNode, targetProfile } from "@strictwire/codec";
import { grouped, plural } from "../format.js";
import { padEndVisible, padStartVisible, type Style, visibleWidth } from "../style.js";

/** Wider labels are not padded to: one deep member must not push every row off the screen. */
const MAX_LABEL_COLUMN = 48;
const MAX_TYPE_COLUMN = 44;

/** `afterSizes`: sections the command adds beside the size table (a typical call's argument tokens). */
export function renderInspection(inspection: Inspection, style: Style, afterSizes: readonly string[] = []): string {
  const sections = [
    header(inspection, style),
    sizeTable(inspection, style),
    ...afterSizes,
    relaxedSection(inspection.relaxed, style),
    treeSection("how each member travels", [inspection.tree], style),
    inspection.defs.length > 0
      ? treeSection(
          "$defs",
          inspection.defs.map((d) => d.tree),
          style,
        )
      : "",
  ];
  return `${sections.filter((s) => s !== "").join("\n\n")}\n`;
}

function header(i: Inspection, style: Style): string {
  const o = i.options;
  // A target whose strict mode has optional members ignores the presence option.
  const presence = targetProfile(o.target).presence === "native" ? "native" : o.presence;
  const facts = [
    o.target,
    `presence ${presence}`,
    ...(o.tags === "minimal" ? ["tags minimal"] : []),
    `open objects ${o.openObjects}`,
    ...(o.factored ? ["factored"] : []),
    ...(o.dialect !== undefined ? [`dialect ${o.dialect}`] : []),
    plural(i.nodes, "node"),
  ];
  return `${style.bold(i.name)}  ${facts.join(" · ")}\n${style.dim(i.digest)}`;
}

/** Spreading a large array into Math.max can overflow the stack; a tree can have thousands of rows. */
const widest = (widths: readonly number[]): number => widths.reduce((a, b) => Math.max(a, b), 0);

// ---- sizes ---------------------------------------------------------------

function sizeTable(i: Inspection, style: Style): string {
  const { source, wire, factored, ratio } = i.sizes;
  const ratioText = [
    `×${ratio.bytes.toFixed(2)} bytes`,
    ...(ratio.tokens !== undefined ? [`×${ratio.tokens.toFixed(2)} tokens`] : []),
  ];
  const rows: [string, Size | null, string][] = [
    ["source", source, ""],
    ["wire", wire, style.dim(ratioText.join(", "))],
    ["factored", factored, factored === null ? style.dim("does not compile") : ""],
  ];
  const cell = (n: number | undefined): string => (n === undefined ? "-" : grouped(n));
  const lines = rows.map(([label, size, note]) =>
    [
      `  ${label.padEnd(9)}`,
      padStartVisible(size === null ? "-" : cell(size.bytes), 10),
      padStartVisible(size === null ? "-" : cell(size.tokens), 9),
      note === "" ? "" : `   ${note}`,
    ].join(""),
  );
  return [`${style.bold("size")}${" ".repeat(12)}bytes   tokens`, ...lines].join("\n");
}

// ---- relaxed constraints -------------------------------------------------

function relaxedSection(relaxed: readonly RelaxedConstraint[], style: Style): string {
  const title = style.bold("relaxed");
  if (relaxed.length === 0) return `${title}  none: the wire enforces every constraint`;
  const paths = relaxed.map((r) => (r.path === "" ? "/" : r.path));
  const pathWidth = Math.min(MAX_LABEL_COLUMN, widest(paths.map((p) => p.length)));
  const keywordWidth = widest(relaxed.map((r) => r.keyword.length));
  const lines = relaxed.map(
    (r, k) =>
      `  ${paths[k]!.padEnd(pathWidth)}  ${style.yellow(r.keyword.padEnd(keywordWidth))}  ${style.dim(shortReason(r.reason))}`,
  );
  return [`${title}  ${plural(relaxed.length, "constraint")} left to the final validation`, ...lines].join("\n");
}

/** The section title already says where relaxed constraints go. */
const shortReason = (reason: string): string => reason.replace(/: enforced by the final validation$/, "");

// ---- the tree ------------------------------------------------------------

interface Row {
  readonly label: string;
  readonly type: string;
  readonly how: string;
}

function treeSection(title: string, roots: readonly TravelNode[], style: Style): string {
  const rows: Row[] = [];
  for (const root of roots) collectRows(root, "", "", rows, style);
  const labelWidth = Math.min(MAX_LABEL_COLUMN, widest(rows.map((r) => visibleWidth(r.label))));
  const typeWidth = Math.min(MAX_TYPE_COLUMN, widest(rows.map((r) => visibleWidth(r.type))));
  const lines = rows.map((r) =>
    `  ${padEndVisible(r.label, labelWidth)}  ${padEndVisible(r.type, typeWidth)}  ${r.how}`.trimEnd(),
  );
  return [style.bold(title), ...lines].join("\n");
}

function collectRows(node: TravelNode, lead: string, childLead: string, rows: Row[], style: Style): void {
  rows.push({ label: `${style.dim(lead)}${node.at}`, type: style.cyan(node.type), how: howText(node, style) });
  node.children.forEach((child, k) => {
    const last = k === node.children.length - 1;
    collectRows(child, `${childLead}${last ? "└─ " : "├─ "}`, `${childLead}${last ? "   " : "│  "}`, rows, style);
  });
}

function howText(node: TravelNode, style: Style): string {
  const parts = [memberText(node), node.travels].filter((p) => p !== "");
  return parts.map((p, k) => (k === 0 && p === "required" ? p : style.dim(p))).join(style.dim(" · "));
}

function memberText(node: TravelNode): string {
  if (node.optional === undefined) return "";
  if (!node.optional) return "required";
  switch (node.presence) {
    case "compact":
      return "optional, compact (null = absent)";
    case "native":
      return "optional, native";
    case "inline":
      return "optional, tag inline";
    default:
      return "optional, tagged";
  }
}
