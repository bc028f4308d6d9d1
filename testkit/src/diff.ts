//! Exact diffs between two projections (`a3s.test.page-context-diff/1`): every changed or removed
//! node id, unique and sorted by UTF-8 bytes; `reset_required` (all flags, no ids) when the
//! baseline is missing, the change is too large, or the metadata would not fit its byte budget.
import type { DiffRecord, Invalidated } from "./protocol";
import type { ProjectionHashes } from "./snapshot/projection";
import { compareUtf8, utf8ByteLength } from "./util/utf8";
import { PAGE_CONTEXT_DIFF_PROTOCOL } from "./version";

/** Most ids a complete diff may list. */
export const MAX_DIFF_IDS = 10_000;

/** A diff and the partition of its node ids. */
export interface ComputedDiff {
  record: DiffRecord;
  /** Changed or added node ids (sorted), disjoint from `removed`. */
  changed: string[];
  /** Removed node ids (sorted). */
  removed: string[];
}

/** A diff that lists no ids: everything invalidated (`reset`) or nothing. */
function emptyDiff(fromRevision: number, toRevision: number, reset: boolean): ComputedDiff {
  return {
    record: {
      protocol: PAGE_CONTEXT_DIFF_PROTOCOL,
      fromRevision,
      toRevision,
      status: reset ? "reset_required" : "complete",
      invalidated: { all: reset, page: reset, facts: reset, ui: reset, nodeIds: [], componentIds: [] },
    },
    changed: [],
    removed: [],
  };
}

/** A `reset_required` diff. */
export function resetDiff(fromRevision: number, toRevision: number): ComputedDiff {
  return emptyDiff(fromRevision, toRevision, true);
}

/** The empty diff of a revision with itself. */
export function noopDiff(revision: number): ComputedDiff {
  return emptyDiff(revision, revision, false);
}

function changedKeys(before: Map<string, number>, after: Map<string, number>): { changed: string[]; removed: string[] } {
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [id, h] of after) if (before.get(id) !== h) changed.push(id);
  for (const id of before.keys()) if (!after.has(id)) removed.push(id);
  changed.sort(compareUtf8);
  removed.sort(compareUtf8);
  return { changed, removed };
}

/** The ids of two disjoint sorted lists, sorted. */
function mergeSorted(a: string[], b: string[]): string[] {
  return [...a, ...b].sort(compareUtf8);
}

/**
 * Compares `baseline` (or its absence) with `current`. `metadataBudget` is the most bytes the
 * encoded diff record may take.
 */
export function computeDiff(
  sinceRevision: number,
  baseline: ProjectionHashes | undefined,
  current: ProjectionHashes,
  metadataBudget: number,
): ComputedDiff {
  if (sinceRevision === current.revision) return noopDiff(current.revision);
  if (baseline === undefined || baseline.overflow || current.overflow) return resetDiff(sinceRevision, current.revision);
  const nodes = changedKeys(baseline.nodes, current.nodes);
  const components = changedKeys(baseline.components, current.components);
  const idCount = nodes.changed.length + nodes.removed.length + components.changed.length + components.removed.length;
  if (idCount > MAX_DIFF_IDS) return resetDiff(sinceRevision, current.revision);
  const invalidated: Invalidated = {
    all: false,
    page: baseline.page !== current.page,
    facts: baseline.facts !== current.facts,
    // Any revision advance may move geometry, so UI understanding is always stale.
    ui: true,
    nodeIds: mergeSorted(nodes.changed, nodes.removed),
    componentIds: mergeSorted(components.changed, components.removed),
  };
  const record: DiffRecord = {
    protocol: PAGE_CONTEXT_DIFF_PROTOCOL,
    fromRevision: sinceRevision,
    toRevision: current.revision,
    status: "complete",
    invalidated,
  };
  if (utf8ByteLength(JSON.stringify(record)) > metadataBudget) return resetDiff(sinceRevision, current.revision);
  return { record, changed: nodes.changed, removed: nodes.removed };
}
