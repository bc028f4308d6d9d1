//! The bridge's public surface: the `PageContextBridge` interface the driver calls and the
//! capabilities advertised by the handshake.
import type { PageAdvice } from "../advice/advice";
import type { Handshake, Probe, RevisionChange, SnapshotRequest, SnapshotResponse } from "../protocol";
import type {
  RepairAction,
  RepairActionBatch,
  RepairActionInput,
  RepairActionList,
  RepairActionTakeOptions,
  RepairBatch,
  RepairChange,
  RepairDraft,
  RepairEvent,
  RepairRecord,
  RepairSendOptions,
  RepairTakeOptions,
  SubmitRepairResult,
} from "../repair/types";
import type { BoundaryRegistration, SourceMapRegistration, SourceRegistration, Unregister } from "./registry";

/** Request of `waitForDiff`: a diff request plus how long to wait for a change. */
export type WaitForDiffRequest = Omit<SnapshotRequest, "detail" | "sinceRevision"> & {
  sinceRevision: number;
  timeoutMs: number;
};

/** The Page Context bridge installed on `window[Symbol.for("a3s.test.page-context")]`. */
export interface PageContextBridge {
  /** Protocol, package, version and capabilities. */
  handshake(): Handshake;
  /** Cheap liveness check: revision, page id, URL, readiness. */
  probe(): Probe;
  /** Reads a bounded, revision-bound projection of the page. */
  snapshot(request?: SnapshotRequest): SnapshotResponse;
  /** The live element of a node id, or null (ids are valid only while their element lives). */
  resolve(nodeId: string): Element | null;
  /**
   * The reverse of `resolve`: the node id scoped snapshots of the current revision report for
   * `element`, so a caller holding an element (the Review Overlay) need not project the page to
   * find it. Null for a detached element, the overlay's own host and anything in it, redacted
   * regions and nodes snapshots exclude. Like every id, it must not be persisted.
   */
  nodeIdOf(element: Element): string | null;
  /** Resolves when the revision passes `revision`, or unchanged after `timeoutMs` (0–300,000). */
  waitForChange(revision: number, timeoutMs: number): Promise<RevisionChange>;
  /** Waits for a change after `sinceRevision`, then returns a diff snapshot. */
  waitForDiff(request: WaitForDiffRequest): Promise<SnapshotResponse>;
  /** Calls `listener` on every new revision; returns the unsubscribe function. */
  subscribe(listener: (change: RevisionChange) => void): () => void;
  /** Stops observing and uninstalls. Later calls (except probe) throw `disposed`. */
  dispose(): void;
  /** Registers a component boundary. */
  registerBoundary(registration: BoundaryRegistration): Unregister;
  /** Registers a framework adapter's source claim for elements. */
  registerSource(registration: SourceRegistration): Unregister;
  /** Registers a flat Source Map v3 for a generated file (never fetched). */
  registerSourceMap(registration: SourceMapRegistration): Unregister;
  /**
   * Queues one finding or a batch (visible order kept); POSTs to `repairEndpoint` when set. The
   * findings are marked `sentBy: "human"` only when `options.gesture` is the trusted event of a
   * person's click or key press the browser is dispatching to the Review Overlay; otherwise
   * `page_script`, which the ledger records as page code's intake.
   */
  submitRepair(draft: RepairDraft | readonly RepairDraft[], options?: RepairSendOptions): Promise<SubmitRepairResult>;
  /** The next pending findings, not removed. */
  peekRepairBatch(options?: { max?: number }): RepairBatch;
  /** Removes and returns the next pending findings (only the listed `ids`, when given). */
  takeRepairBatch(options?: RepairTakeOptions): RepairBatch;
  /** Every finding this page knows. */
  listRepairs(): RepairRecord[];
  /** Mirrors a lifecycle event from the ledger (idempotent). */
  applyRepairEvent(event: RepairEvent): RepairRecord;
  /**
   * Queues a human action on a finding, marked like `submitRepair` (`sentBy`); the ledger refuses
   * an action page code queued.
   */
  submitRepairAction(action: RepairActionInput, options?: RepairSendOptions): Promise<RepairAction>;
  /** The first `max` (1–100) queued human actions, not removed (a session drains them). */
  peekRepairActions(options?: { max?: number }): RepairActionBatch;
  /**
   * Removes queued human actions and returns them: all of them without options; with `answers`
   * (the ledger's per-item answers to the peeked actions) exactly those with a final answer,
   * keeping their outcomes as after a POST, while `retry` or unanswered ones stay queued.
   */
  takeRepairActions(options?: RepairActionTakeOptions): RepairActionBatch;
  /** Human actions still queued, and the endpoint's final answers (applied, duplicate, refused) to those that left. */
  listRepairActions(): RepairActionList;
  /**
   * Calls `listener` after the repair queue changes (findings queued, delivered or taken, a
   * lifecycle event, an action queued, answered or taken, state recovered from storage), at most
   * once per microtask with every kind of change since the last call, so the overlay re-reads
   * `listRepairs()` when something happened instead of polling. A throwing listener is reported
   * and ignored. Returns the unsubscribe function.
   */
  subscribeRepairs(listener: (change: RepairChange) => void): () => void;
  /**
   * Shows a design review's advice (`a3s.test.design-advice/1`, from `a3s-test agent audit`) in
   * the Review Overlay while the page stays at the advice's revision. Refuses a malformed one
   * (`invalid_request`: unknown fields such as a verdict or an action, bounds); answers
   * `{shown: false}` for advice about a revision the page has left. Queues and records nothing.
   */
  showAdvice(advice: unknown): { shown: boolean; revision: number };
  /** The advice about the current revision, or null (advice about an older one is dropped). */
  listAdvice(): PageAdvice | null;
  /** Calls `listener` when advice arrives or is dropped; returns the unsubscribe function. */
  subscribeAdvice(listener: () => void): () => void;
}

/** Capabilities advertised by the handshake. */
export const CAPABILITIES: readonly string[] = [
  "snapshot.summary",
  "snapshot.scoped",
  "snapshot.forensic",
  "snapshot.diff",
  "scope.page",
  "scope.node",
  "scope.component",
  "scope.region",
  "cursor",
  "geometry",
  "shadow-dom.open",
  "wait-for-change",
  "wait-for-diff",
  "subscribe",
  "source-mapping",
  "source-map.v3-flat",
  "ui-understanding",
  "repair-queue",
  "repair-notify",
  "repair-actions-drain",
  "node-id-of",
  "design-advice",
];
