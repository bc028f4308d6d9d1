//! Size fitting: keeps an encoded response within its byte budget by shrinking in a fixed order —
//! drop UI understanding, then trailing nodes (keeping at least one), then component facts and
//! boxes, then components, then page facts — and reports what was cut.
import { TestKitError } from "../errors";
import type { NodeRecord, SnapshotResponse, TruncationReason } from "../protocol";
import { utf8ByteLength } from "../util/utf8";

/** Encoded size of a value in UTF-8 JSON bytes. */
export function jsonBytes(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value));
}

/** Node sizes known as upper bounds, with the exact sizes computed only when needed. */
export interface NodeSizes {
  atMost: readonly number[];
  exact: () => readonly number[];
}

/** Result of {@link fitResponse}. */
export interface FitResult {
  response: SnapshotResponse;
  /** How many of the offered nodes were kept. */
  keptNodes: number;
}

/**
 * Fits `draft` (whose `nodes` are the offered page of nodes) into `budget` bytes.
 * `cursorFor(kept)` returns the cursor to put in `nextCursor` when `kept` < offered, so its
 * length is accounted for exactly. `knownNodeBytes` are the nodes' exact sizes, or upper bounds
 * that settle the common case (everything fits) with exact sizes computed only otherwise.
 */
export function fitResponse(
  draft: SnapshotResponse,
  budget: number,
  cursorFor: (kept: number) => string | null,
  knownNodeBytes?: readonly number[] | NodeSizes,
): FitResult {
  const offered = draft.nodes;
  const reasons: TruncationReason[] = [...draft.truncatedReasons];
  let response: SnapshotResponse = { ...draft, nextCursor: cursorFor(offered.length) };
  let known = knownNodeBytes;
  if (known !== undefined && "exact" in known) {
    if (known.atMost.length === offered.length) {
      const atMost = known.atMost.reduce((a, b) => a + b, 0) + Math.max(0, offered.length - 1);
      if (jsonBytes({ ...response, nodes: [] }) + atMost <= budget) return { response, keptNodes: offered.length };
    }
    known = known.exact();
  }
  const sizes = known !== undefined && known.length === offered.length ? [...known] : offered.map((n) => jsonBytes(n));
  // Exact: an array encodes as "[" + items.join(",") + "]", so the whole response never needs
  // re-encoding just to learn its size.
  const total = (r: SnapshotResponse) => jsonBytes({ ...r, nodes: [] }) + sizes.reduce((a, b) => a + b, 0) + Math.max(0, sizes.length - 1);
  if (total(response) <= budget) return { response, keptNodes: offered.length };
  if (response.ui !== undefined) {
    const { ui: _ui, ...rest } = response;
    response = rest;
    reasons.push("ui");
    if (total(withReasons(response, reasons)) <= budget) return { response: withReasons(response, reasons), keptNodes: offered.length };
  }
  const keep = (r: SnapshotResponse): number => {
    // Exact: an array encodes as "[" + items.join(",") + "]".
    let kept = 0;
    const skeletonWithCursor = (k: number) => jsonBytes({ ...withReasons(r, [...reasons, "nodes"]), nodes: [], nextCursor: cursorFor(k) });
    let total = skeletonWithCursor(Math.max(offered.length - 1, 0));
    for (const size of sizes) {
      const add = size + (kept > 0 ? 1 : 0);
      if (total + add > budget) break;
      total += add;
      kept++;
    }
    return kept;
  };
  let kept = keep(response);
  if (kept < 1 && offered.length > 0) {
    reasons.push("components");
    response = { ...response, components: response.components.map((c) => ({ ...c, facts: {}, boxes: [] })) };
    kept = keep(response);
    if (kept < 1) {
      response = { ...response, components: [] };
      kept = keep(response);
    }
    if (kept < 1) {
      reasons.push("facts");
      response = { ...response, facts: {} };
      kept = keep(response);
    }
    if (kept < 1) {
      throw new TestKitError("budget_too_small", `limits.responseBytes (${budget}) cannot hold even one node; raise it`);
    }
  }
  if (kept < offered.length) reasons.push("nodes");
  const nodes: NodeRecord[] = offered.slice(0, kept);
  const final = withReasons({ ...response, nodes, nextCursor: cursorFor(kept) }, reasons);
  if (jsonBytes(final) > budget) {
    throw new TestKitError("budget_too_small", `limits.responseBytes (${budget}) cannot hold the page record; raise it`);
  }
  return { response: final, keptNodes: kept };
}

function withReasons(r: SnapshotResponse, reasons: TruncationReason[]): SnapshotResponse {
  const unique = Array.from(new Set(reasons));
  return { ...r, truncatedReasons: unique, truncated: r.truncated || unique.length > 0 };
}
