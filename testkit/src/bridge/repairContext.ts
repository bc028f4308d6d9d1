//! Page context captured when a finding is sent: the target nodes with their locators and
//! source hints, nearby nodes, components, page, facts and bounded UI understanding, all marked
//! untrusted. Reads go through snapshots that do not touch the driver's diff history.
import type { ComponentRecord, Facts, NodeRecord, PageRecord, SnapshotRequest, SnapshotResponse } from "../protocol";
import type { RepairContext, RepairTarget } from "../repair/types";

/** Most target nodes described. */
const MAX_TARGETS = 16;
/** Most nearby nodes kept. */
const MAX_NEARBY = 24;

/** What capturing needs from the bridge. */
export interface RepairContextDeps {
  /** Closes the open batch and returns the current revision. */
  revision: () => number;
  page: () => PageRecord;
  facts: () => Facts;
  /** A snapshot that records no diff baseline. */
  read: (request: SnapshotRequest) => SnapshotResponse;
  element: (nodeId: string) => Element | null;
  idOf: (el: Element) => string;
  /** False for elements whose subtree must not be read as "nearby" (body, redacted). */
  readable: (el: Element) => boolean;
}

/** Captures the context of a finding at the current revision. */
export function captureRepairContext(target: RepairTarget, deps: RepairContextDeps): RepairContext {
  const revision = deps.revision();
  const page = deps.page();
  const targetNodes: NodeRecord[] = [];
  const nearbyNodes: NodeRecord[] = [];
  const components = new Map<string, ComponentRecord>();
  const addNearby = (nodes: readonly NodeRecord[]) => {
    for (const n of nodes) {
      if (nearbyNodes.length >= MAX_NEARBY) return;
      if (!target.nodeIds.includes(n.id) && !nearbyNodes.some((m) => m.id === n.id)) nearbyNodes.push(n);
    }
  };
  for (const nodeId of target.nodeIds.slice(0, MAX_TARGETS)) {
    const el = deps.element(nodeId);
    if (el === null || !el.isConnected) continue;
    const own = deps.read({ detail: "scoped", scope: { kind: "node", nodeId }, ui: false, limits: { nodes: 1 } });
    const first = own.nodes[0];
    if (first !== undefined) targetNodes.push(first);
    for (const c of own.components) components.set(c.id, c);
    const parent = el.parentElement;
    if (parent !== null && deps.readable(parent)) {
      addNearby(deps.read({ detail: "summary", scope: { kind: "node", nodeId: deps.idOf(parent) }, ui: false, limits: { nodes: 9 } }).nodes);
    }
  }
  // Region and drawing targets: the nodes under the region are the nearby evidence.
  let ui: RepairContext["ui"];
  if (target.region !== undefined) {
    const { x, y, width, height } = target.region;
    const around = deps.read({ detail: "summary", scope: { kind: "region", space: "viewport", x, y, width, height }, ui: true, limits: { nodes: MAX_NEARBY, uiNodes: MAX_NEARBY } });
    addNearby(around.nodes);
    for (const c of around.components) components.set(c.id, c);
    ui = around.ui;
  } else if (targetNodes[0] !== undefined) {
    ui = deps.read({ detail: "summary", scope: { kind: "node", nodeId: targetNodes[0].id }, ui: true, limits: { nodes: MAX_NEARBY, uiNodes: MAX_NEARBY } }).ui;
  }
  return {
    untrusted: true,
    contextRevision: revision,
    page,
    route: page.route,
    viewport: page.viewport,
    components: Array.from(components.values()),
    sourceHints: targetNodes.flatMap((n) => n.sourceMapping?.candidates ?? []).slice(0, 8),
    locators: targetNodes.map((n) => ({ nodeId: n.id, locators: n.locators })),
    targetNodes,
    nearbyNodes,
    facts: deps.facts(),
    ...(ui !== undefined ? { ui } : {}),
  };
}
