//! UI understanding (`a3s.test.ui-understanding/1`): a bounded layout graph (box model, flex/grid,
//! overflow; contains / scroll_container / offset_parent edges), style tokens, repeated-structure
//! clusters, state changes since the previous observation, overlapping and clipped boxes and motion.
//! It has its own node and time budget; edges, overlaps, clips and animations only name nodes that
//! are in the record, so a cut never breaks the graph.
import type { Edges, Rect, Scope, StyleToken, UiLayoutEdge, UiLayoutNode, UiUnderstanding, Viewport } from "../protocol";
import type { Platform, StyleView } from "../platform";
import { UI_UNDERSTANDING_PROTOCOL } from "../version";
import { round2, roundRect } from "../snapshot/geometry";
import { relationsOf } from "./relations";
import { entryRect, type WalkEntry } from "../snapshot/walk";

/** Inputs of {@link understand}. */
export interface UnderstandingInput {
  entries: readonly WalkEntry[];
  /** Ids of the nodes present in the response; the record never mentions another id. */
  allowedIds: ReadonlySet<string>;
  idOf: (el: Element) => string | undefined;
  platform: Platform;
  revision: number;
  viewport: Viewport;
  scope: Scope;
  limits: { nodes: number; timeMs: number };
  observationId: string;
  /** Layout state of the previous observation (nodeId → field → value); updated in place. */
  memory: Map<string, Map<string, string>>;
}

function px(s: StyleView, name: string): number {
  const v = parseFloat(s.getPropertyValue(name));
  return Number.isFinite(v) ? round2(v) : 0;
}

function edgesOf(s: StyleView, prefix: string, suffix = ""): Edges {
  return {
    top: px(s, `${prefix}-top${suffix}`),
    right: px(s, `${prefix}-right${suffix}`),
    bottom: px(s, `${prefix}-bottom${suffix}`),
    left: px(s, `${prefix}-left${suffix}`),
  };
}

function tally(map: Map<string, number>, value: string): void {
  if (value === "" || value === "none" || value === "normal" || value === "0px" || value === "rgba(0, 0, 0, 0)") return;
  map.set(value, (map.get(value) ?? 0) + 1);
}

function top(map: Map<string, number>, n = 12): StyleToken[] {
  return Array.from(map, ([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
    .slice(0, n);
}

/** An element's part of a signature: its tag and explicit role (bounded; page text). */
function shapeOf(el: Element): string {
  const role = el.getAttribute("role");
  return role === null || role === "" ? el.localName : `${el.localName}[role=${role.slice(0, 32)}]`;
}

/**
 * The shape repeated items share: tag, explicit role and their children's. Class names are left
 * out on purpose: they are styling, not component truth (items styled alike are not thereby one
 * component, and one component's items may differ by a modifier class).
 */
function signatureOf(el: Element): string {
  return `${shapeOf(el)}(${Array.from(el.children, shapeOf).join(",")})`;
}

/** Builds the record, or returns undefined when no node fits the budget. */
export function understand(input: UnderstandingInput): UiUnderstanding | undefined {
  const { platform, limits } = input;
  const started = platform.now();
  const reasons: UiUnderstanding["budget"]["reasons"] = [];
  const nodes: UiLayoutNode[] = [];
  const included = new Map<Element, string>();
  const boxes = new Map<Element, Rect>();
  const colors = new Map<string, number>();
  const spacing = new Map<string, number>();
  const radius = new Map<string, number>();
  const shadow = new Map<string, number>();
  const typography = new Map<string, number>();
  const stateDiffs: UiUnderstanding["stateDiffs"] = [];
  for (const entry of input.entries) {
    if (!input.allowedIds.has(entry.id) || entry.redacted) continue;
    if (nodes.length >= limits.nodes) {
      reasons.push("node_limit");
      break;
    }
    if (platform.now() - started > limits.timeMs) {
      reasons.push("time_limit");
      break;
    }
    const s = entry.style;
    const display = s.getPropertyValue("display");
    const node: UiLayoutNode = {
      nodeId: entry.id,
      display,
      position: s.getPropertyValue("position") || "static",
      rect: roundRect(entryRect(entry, platform)),
      margin: edgesOf(s, "margin"),
      border: edgesOf(s, "border", "-width"),
      padding: edgesOf(s, "padding"),
      overflow: { x: s.getPropertyValue("overflow-x") || "visible", y: s.getPropertyValue("overflow-y") || "visible" },
      boxSizing: s.getPropertyValue("box-sizing") || "content-box",
      writingMode: s.getPropertyValue("writing-mode") || "horizontal-tb",
      direction: s.getPropertyValue("direction") || "ltr",
    };
    if (display.endsWith("flex")) {
      node.flex = {
        direction: s.getPropertyValue("flex-direction"),
        wrap: s.getPropertyValue("flex-wrap"),
        justify: s.getPropertyValue("justify-content"),
        align: s.getPropertyValue("align-items"),
        gap: s.getPropertyValue("gap"),
      };
    } else if (display.endsWith("grid")) {
      node.grid = {
        columns: s.getPropertyValue("grid-template-columns"),
        rows: s.getPropertyValue("grid-template-rows"),
        gap: s.getPropertyValue("gap"),
      };
    }
    nodes.push(node);
    included.set(entry.el, entry.id);
    boxes.set(entry.el, node.rect);
    tally(colors, s.getPropertyValue("color"));
    tally(colors, s.getPropertyValue("background-color"));
    for (const e of [node.margin, node.padding]) for (const v of [e.top, e.right, e.bottom, e.left]) if (v !== 0) tally(spacing, `${v}px`);
    tally(radius, s.getPropertyValue("border-radius"));
    tally(shadow, s.getPropertyValue("box-shadow"));
    const font = `${s.getPropertyValue("font-family")}|${s.getPropertyValue("font-size")}|${s.getPropertyValue("font-weight")}|${s.getPropertyValue("line-height")}`;
    if (font !== "|||") tally(typography, font);
    const now = new Map<string, string>([
      ["display", display],
      ["visibility", s.getPropertyValue("visibility")],
      ["size", `${node.rect.width}x${node.rect.height}`],
    ]);
    const before = input.memory.get(entry.id);
    if (before !== undefined) {
      for (const [field, value] of now) {
        const old = before.get(field);
        if (old !== undefined && old !== value) stateDiffs.push({ nodeId: entry.id, field, from: old, to: value });
      }
    }
    input.memory.set(entry.id, now);
  }
  if (input.memory.size > 4 * 1000) {
    for (const key of Array.from(input.memory.keys()).slice(0, input.memory.size - 4000)) input.memory.delete(key);
  }
  if (nodes.length === 0) return undefined;
  const edges: UiLayoutEdge[] = [];
  const byId = new Map<string, WalkEntry>();
  for (const e of input.entries) byId.set(e.id, e);
  const includedIds = new Set(included.values());
  for (const node of nodes) {
    const entry = byId.get(node.nodeId);
    if (entry === undefined) continue;
    const parent = input.entries[entry.parentIndex];
    if (parent !== undefined && included.has(parent.el)) edges.push({ from: parent.id, to: node.nodeId, kind: "contains" });
    if (entry.scrollContainerId !== undefined && includedIds.has(entry.scrollContainerId)) {
      edges.push({ from: entry.scrollContainerId, to: node.nodeId, kind: "scroll_container" });
    }
    const offsetParent = (entry.el as HTMLElement).offsetParent ?? null;
    const opId = offsetParent !== null ? included.get(offsetParent) : undefined;
    if (opId !== undefined) edges.push({ from: opId, to: node.nodeId, kind: "offset_parent" });
  }
  const clusters = new Map<string, { parent: Element | null; signature: string; ids: string[] }>();
  for (const [el, id] of included) {
    const signature = signatureOf(el);
    const key = `${input.idOf(el.parentElement ?? el) ?? ""}|${signature}`;
    const c = clusters.get(key) ?? { parent: el.parentElement, signature, ids: [] };
    c.ids.push(id);
    clusters.set(key, c);
  }
  const components = Array.from(clusters.values())
    .filter((c) => c.ids.length >= 2)
    .map((c, i) => ({ id: `cluster-${i + 1}`, signature: c.signature, nodeIds: c.ids }));
  const relations = relationsOf({ included, boxes, platform, started, timeMs: limits.timeMs, maxPairs: limits.nodes });
  if (relations.cut !== undefined && !reasons.includes(relations.cut)) reasons.push(relations.cut);
  const used = platform.now() - started;
  return {
    protocol: UI_UNDERSTANDING_PROTOCOL,
    observationId: input.observationId,
    pageRevision: input.revision,
    viewport: input.viewport,
    scope: input.scope,
    budget: {
      limits,
      used: { nodes: nodes.length, timeMs: Math.round(used * 100) / 100 },
      truncated: reasons.length > 0,
      reasons,
    },
    evidence: { source: "computed_style", nodeCount: nodes.length, inaccessibleStyleSheets: platform.inaccessibleStyleSheets(), untrusted: true },
    style: { color: top(colors), spacing: top(spacing), radius: top(radius), shadow: top(shadow), typography: top(typography) },
    layout: { nodes, edges },
    components,
    stateDiffs,
    overlaps: relations.overlaps,
    clips: relations.clips,
    motion: { runningAnimations: platform.runningAnimations(), reducedMotion: platform.prefersReducedMotion(), animations: relations.animations },
  };
}
