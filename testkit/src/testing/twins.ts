//! Test-only: two bridges on one window — one reusing unchanged records between projections, one
//! rebuilding every record — and their snapshots with node ids replaced by the element they name
//! (each bridge has its own ids), so the two can be compared exactly. Not exported by the package.
import { createBridge, type PageContextBridge } from "../bridge/bridge";
import { resolveOptions } from "../bridge/options";
import type { Platform } from "../platform";
import type { NodeRecord, SnapshotRequest, SnapshotResponse } from "../protocol";

/** One bridge and what the last step saw. */
export interface Twin {
  bridge: PageContextBridge;
  /** Elements of the previous full snapshot by node id (to name removed ids). */
  previous: Map<string, Element>;
  /** Revision of the previous full snapshot (the next diff's baseline). */
  revision: number;
}

/** What one step reports, comparable between the twins. */
export interface TwinStep {
  status: string | undefined;
  /** Element keys of the removed node ids, sorted. */
  removed: string[];
  /** The diff's nodes, ids normalized. */
  changed: unknown[];
  /** The full snapshot's nodes, ids normalized. */
  nodes: unknown[];
  components: SnapshotResponse["components"];
  /** Elements of the diff's changed nodes (for assertions). */
  changedElements: Element[];
}

/** Every element under `root`, open shadow trees included, in tree order. */
export function allElements(root: ParentNode, out: Element[] = []): Element[] {
  for (let el = root.firstElementChild; el !== null; el = el.nextElementSibling) {
    out.push(el);
    if (el.shadowRoot !== null) allElements(el.shadowRoot, out);
    allElements(el, out);
  }
  return out;
}

/** Creates a bridge (not installed on the window) that reuses records or not. */
export function createTwin(reuse: boolean, platform: Platform, redact: readonly string[] = []): Twin {
  const options = resolveOptions({ enabled: true, page: { id: "twin" }, redact, limits: { nodes: 2000 } });
  const bridge = createBridge({ win: window, options, platform, onDispose: () => {}, reuseRecords: reuse });
  return { bridge, previous: new Map(), revision: bridge.snapshot({ ui: false }).revision };
}

function keyOf(el: Element | undefined, index: Map<Element, number>): string {
  return el === undefined ? "unknown" : `e${index.get(el) ?? `detached:${el.localName}`}`;
}

function normalize(twin: Twin, r: SnapshotResponse, index: Map<Element, number>): { nodes: unknown[]; elements: Map<string, Element> } {
  const elements = new Map<string, Element>();
  for (const n of r.nodes) {
    const el = twin.bridge.resolve(n.id);
    if (el === null) throw new Error(`snapshot node ${n.id} does not resolve`);
    elements.set(n.id, el);
  }
  const key = (id: string) => keyOf(elements.get(id) ?? twin.previous.get(id) ?? twin.bridge.resolve(id) ?? undefined, index);
  const nodes = r.nodes.map((n: NodeRecord) => ({
    ...n,
    id: key(n.id),
    ...(n.parentId !== undefined ? { parentId: key(n.parentId) } : {}),
    ...(n.geometry?.scrollContainerNodeId !== undefined ? { geometry: { ...n.geometry, scrollContainerNodeId: key(n.geometry.scrollContainerNodeId) } } : {}),
  }));
  return { nodes, elements };
}

/** The node id `twin` gives `el` in a scoped snapshot, if any. */
export function nodeIdOf(twin: Twin, el: Element): string | undefined {
  return twin.bridge.snapshot({ detail: "scoped", ui: false }).nodes.find((n) => twin.bridge.resolve(n.id) === el)?.id;
}

/** Normalized nodes of `r` (ids replaced by element keys). */
export function normalizedNodes(twin: Twin, r: SnapshotResponse): unknown[] {
  return normalize(twin, r, elementIndex()).nodes;
}

/** Element → position in document order (open shadow trees included). */
export function elementIndex(): Map<Element, number> {
  return new Map(allElements(document.documentElement).map((el, k) => [el, k] as const));
}

/** A diff since the twin's last step, then a full snapshot that becomes the next baseline. */
export function twinStep(twin: Twin, request: SnapshotRequest = {}, index: Map<Element, number> = elementIndex()): TwinStep {
  const diff = twin.bridge.snapshot({ ui: false, ...request, detail: "diff", sinceRevision: twin.revision });
  const removed = diff.removedNodeIds.map((id) => keyOf(twin.previous.get(id), index)).sort();
  const changedNormalized = normalize(twin, diff, index);
  const full = twin.bridge.snapshot({ ui: false, ...request });
  const normalized = normalize(twin, full, index);
  twin.previous = normalized.elements;
  twin.revision = full.revision;
  return {
    status: diff.delta?.status,
    removed,
    changed: changedNormalized.nodes,
    nodes: normalized.nodes,
    components: full.components,
    changedElements: Array.from(changedNormalized.elements.values()),
  };
}
