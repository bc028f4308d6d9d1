//! Snapshot request validation and normalization, plus the two keys derived from a request: the
//! projection key (what a diff baseline is comparable with) and the request key (what a cursor
//! is bound to).
import { TestKitError } from "../errors";
import { resolveRequestLimits } from "../limits";
import type { Detail, Limits, Scope, SnapshotRequest } from "../protocol";
import { hash53 } from "../util/hash";

/** A validated request with defaults filled in. */
export interface NormalizedRequest {
  detail: Detail;
  scope: Scope;
  sinceRevision?: number;
  cursor?: string;
  ui: boolean;
  limits: Limits;
}

const DETAILS: readonly Detail[] = ["summary", "scoped", "diff", "forensic"];
const REQUEST_KEYS = new Set(["detail", "scope", "sinceRevision", "cursor", "ui", "limits"]);

function finite(v: unknown, what: string): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new TestKitError("invalid_request", `${what} must be a finite number`);
  return v;
}

function nonEmpty(v: unknown, what: string): string {
  if (typeof v !== "string" || v === "") throw new TestKitError("invalid_request", `${what} must be a non-empty string`);
  return v;
}

/** Validates a scope. */
export function normalizeScope(input: unknown): Scope {
  if (input === undefined) return { kind: "page" };
  if (typeof input !== "object" || input === null) throw new TestKitError("invalid_request", "scope must be an object");
  const s = input as Record<string, unknown>;
  switch (s.kind) {
    case "page":
      return { kind: "page" };
    case "node":
      return { kind: "node", nodeId: nonEmpty(s.nodeId, "scope.nodeId") };
    case "component":
      return { kind: "component", componentId: nonEmpty(s.componentId, "scope.componentId") };
    case "region": {
      if (s.space !== "viewport" && s.space !== "document") throw new TestKitError("invalid_request", 'scope.space must be "viewport" or "document"');
      const width = finite(s.width, "scope.width");
      const height = finite(s.height, "scope.height");
      if (width < 0 || height < 0) throw new TestKitError("invalid_request", "scope.width and scope.height must not be negative");
      return { kind: "region", space: s.space, x: finite(s.x, "scope.x"), y: finite(s.y, "scope.y"), width, height };
    }
    default:
      throw new TestKitError("invalid_request", `scope.kind must be page, node, component or region, got ${String(s.kind)}`);
  }
}

/** Validates `input` and lowers its limits to the installed ones. */
export function normalizeRequest(input: SnapshotRequest | undefined, installed: Limits): NormalizedRequest {
  const req: SnapshotRequest = input ?? {};
  if (typeof req !== "object" || req === null) throw new TestKitError("invalid_request", "request must be an object");
  for (const k of Object.keys(req)) {
    if (!REQUEST_KEYS.has(k)) throw new TestKitError("invalid_request", `unknown request field "${k}"`);
  }
  const detail = req.detail ?? "summary";
  if (!DETAILS.includes(detail)) throw new TestKitError("invalid_request", `detail must be one of ${DETAILS.join(", ")}`);
  const out: NormalizedRequest = {
    detail,
    scope: normalizeScope(req.scope),
    ui: req.ui !== false,
    limits: resolveRequestLimits(installed, req.limits),
  };
  if (req.ui !== undefined && typeof req.ui !== "boolean") throw new TestKitError("invalid_request", "ui must be a boolean");
  if (detail === "diff") {
    const since = req.sinceRevision;
    if (typeof since !== "number" || !Number.isInteger(since) || since < 0) {
      throw new TestKitError("invalid_request", "sinceRevision must be a non-negative integer for detail \"diff\"");
    }
    out.sinceRevision = since;
  } else if (req.sinceRevision !== undefined) {
    throw new TestKitError("invalid_request", 'sinceRevision is only valid with detail "diff"');
  }
  if (req.cursor !== undefined) out.cursor = nonEmpty(req.cursor, "cursor");
  return out;
}

/** The detail whose records a request's projection uses (diffs compare summary projections). */
export function baseDetailOf(detail: Detail): "summary" | "scoped" | "forensic" {
  return detail === "diff" ? "summary" : detail;
}

/** Key of the projection a request reads: comparable baselines share it. */
export function projectionKeyOf(req: NormalizedRequest): string {
  return JSON.stringify([baseDetailOf(req.detail), req.scope, req.limits.stringBytes]);
}

/** Key of the whole request except the cursor: a cursor only continues this exact request. */
export function requestKeyOf(req: NormalizedRequest): string {
  const { cursor: _cursor, ...rest } = req;
  return hash53(JSON.stringify(rest)).toString(36);
}
