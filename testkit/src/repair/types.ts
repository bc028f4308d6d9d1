//! Shapes of the page-side repair queue (`a3s.test.repair/1`): drafts, records, lifecycle events
//! mirrored from the ledger, and human actions. The Review Overlay fills the queue; the session
//! (or a same-origin endpoint) drains it.
import type { ComponentRecord, Facts, Locator, NodeRecord, PageRecord, Rect, SourceCandidate, UiUnderstanding, Viewport } from "../protocol";

/** The 13 statuses of the repair state machine. */
export const REPAIR_STATUSES = [
  "draft",
  "queued",
  "claimed",
  "repairing",
  "verifying",
  "review_ready",
  "resolved",
  "cancelled",
  "needs_input",
  "failed",
  "verification_failed",
  "reopened",
  "dismissed",
] as const;

/** A repair status. */
export type RepairStatus = (typeof REPAIR_STATUSES)[number];
/** What the reviewer wants. */
export type RepairIntent = "fix" | "change" | "question" | "approve";
/** How much it matters. */
export type RepairSeverity = "blocking" | "important" | "suggestion";
/**
 * Who caused an event. `page_script` enters findings that page code queued (no trusted gesture
 * in the Review Overlay); it can decide nothing.
 */
export type RepairActor = "human" | "agent" | "a3s-test" | "page_script";

/**
 * Who queued a finding or an action in the page: `human` when a person's trusted pointer or
 * keyboard gesture in the Review Overlay sent it, `page_script` for anything page code queued
 * (a script calling the queue, the overlay's API called without such a gesture). The ledger
 * records a `page_script` finding as page code's intake and refuses a `page_script` action.
 */
export type RepairSender = "human" | "page_script";

/** How a finding or an action is being sent. */
export interface RepairSendOptions {
  /**
   * The event of the person's gesture that sent it. Only a trusted `click`, key or pointer event
   * the browser is dispatching to the Review Overlay right now marks the send as `human`; any
   * other value (or none) marks it `page_script`.
   */
  gesture?: Event;
}

/** Layout Mode: place a new component. Rects in viewport CSS px. */
export interface LayoutPlacement {
  mode: "placement";
  /** A catalog id (kebab-case, e.g. `date-picker`) or a project component's name as typed. */
  componentType: string;
  /** Which of the two `componentType` is, so a project `button` is not the catalog's `button`. */
  componentSource: "catalog" | "project";
  canvas: "page" | "wireframe";
  /** What the page is for; absent when the reviewer left it blank (never `""`). */
  purpose?: string;
  destination: Rect;
}

/** Layout Mode: move an existing region or node. Rects in viewport CSS px. */
export interface LayoutRearrange {
  mode: "rearrange";
  originalRegion: Rect;
  nodeId?: string;
  destination: Rect;
}

/** What a finding points at. */
export interface RepairTarget {
  kind: "node" | "text" | "region" | "drawing";
  nodeIds: string[];
  region?: Rect;
  regionScroll?: { x: number; y: number };
  text?: string;
  drawing?: Array<{ x: number; y: number }>;
  layout?: LayoutPlacement | LayoutRearrange;
}

/** A declared semantic incompatibility with another finding (compared by id only). */
export interface RepairRelation {
  kind: "conflicts_with";
  findingId: string;
}

/** Element states a `target_state` criterion can require. */
export const TARGET_STATES = ["enabled", "disabled", "checked", "unchecked", "expanded", "collapsed"] as const;
/** One required element state. */
export type TargetState = (typeof TARGET_STATES)[number];

/** Kinds of browser-verifiable success criteria. */
export const SUCCESS_CRITERION_KINDS = ["target_text", "page_text", "page_text_absent", "target_visible", "target_hidden", "target_state"] as const;

/**
 * A success criterion the tool can check in the browser after a repair. A plain string in
 * `successCriteria` is prose for the reviewer and is never browser-verified.
 */
export type SuccessCriterion =
  | { kind: "target_text"; equals: string }
  | { kind: "page_text"; contains: string }
  | { kind: "page_text_absent"; contains: string }
  | { kind: "target_visible" }
  | { kind: "target_hidden" }
  | { kind: "target_state"; state: TargetState };

/** A reviewer's draft finding. */
export interface RepairDraft {
  /** Stable id; generated when absent. */
  id?: string;
  /** ISO timestamp; now when absent. */
  createdAt?: string;
  target: RepairTarget;
  /** At most 8,192 characters. */
  instruction: string;
  /** At most 16 entries; prose strings and typed criteria may be mixed. */
  successCriteria?: Array<string | SuccessCriterion>;
  intent: RepairIntent;
  severity: RepairSeverity;
  /** At most 16 relations, each naming another finding id. */
  relations?: RepairRelation[];
}

/** Page context captured when a finding is sent; untrusted evidence. */
export interface RepairContext {
  untrusted: true;
  contextRevision: number;
  page: PageRecord;
  route: string;
  viewport: Viewport;
  components: ComponentRecord[];
  sourceHints: SourceCandidate[];
  locators: Array<{ nodeId: string; locators: Locator[] }>;
  targetNodes: NodeRecord[];
  nearbyNodes: NodeRecord[];
  facts: Facts;
  ui?: UiUnderstanding;
}

/** A lifecycle event mirrored from the ledger. */
export interface RepairEvent {
  repairId: string;
  sequence: number;
  status: RepairStatus;
  actor: RepairActor;
  at: string;
  requestId: string;
  attemptId?: string;
  message?: string;
}

/** A queued finding. */
export interface RepairRecord {
  protocol: "a3s.test.repair/1";
  id: string;
  /** One id per send (a single finding or a batch); the ledger checks conflicts within it. */
  batchId: string;
  createdAt: string;
  /** The revision the context was captured at (repeats `context.contextRevision`). */
  contextRevision: number;
  status: RepairStatus;
  target: RepairTarget;
  instruction: string;
  successCriteria: Array<string | SuccessCriterion>;
  intent: RepairIntent;
  severity: RepairSeverity;
  relations: RepairRelation[];
  context: RepairContext;
  /** Sequence of the last applied event (0 = none). */
  sequence: number;
  events: Array<Omit<RepairEvent, "repairId">>;
  /** Where the record went: still in the page queue, taken by a session, or posted. */
  delivery: "page_queue" | "taken" | "endpoint";
  /** Who queued it (see {@link RepairSender}); absent on the wire means `page_script`. */
  sentBy: RepairSender;
}

/** `{"protocol":"a3s.test.repair/1","repairs":[…]}` */
export interface RepairBatch {
  protocol: "a3s.test.repair/1";
  repairs: RepairRecord[];
}

/** What `takeRepairBatch` removes: the first `max` pending findings, or only those in `ids`. */
export interface RepairTakeOptions {
  max?: number;
  /** At most 100 finding ids; pending findings not listed stay queued. */
  ids?: readonly string[];
}

/** A human action on a finding. */
export interface RepairActionInput {
  repairId: string;
  kind: "reply" | "accept" | "dismiss" | "reopen";
  message?: string;
  requestId?: string;
}

/** A queued human action. */
export interface RepairAction {
  id: string;
  repairId: string;
  kind: RepairActionInput["kind"];
  message?: string;
  requestId: string;
  createdAt: string;
  /** Who queued it; only a `human` action can change a finding. Absent on the wire means `page_script`. */
  sentBy: RepairSender;
}

/**
 * `takeRepairActions` with the answers a session got from its ledger: exactly the actions with a
 * final answer leave the queue (their outcome is kept, as after a POST); the others stay.
 */
export interface RepairActionTakeOptions {
  /** The per-item answers, in the endpoint's `actions` answer shape (`RepairActionResult`). */
  answers: readonly RepairActionResult[];
}

/** `{"protocol":"a3s.test.repair/1","actions":[…]}` */
export interface RepairActionBatch {
  protocol: "a3s.test.repair/1";
  actions: RepairAction[];
}

/** What became of an action at the endpoint (`docs/schema` `$defs/actionOutcome`). */
export const REPAIR_ACTION_ANSWERS = ["applied", "duplicate", "refused", "retry"] as const;
/**
 * `applied`, `duplicate` and `refused` are final: the action leaves the page queue. `retry`
 * means the ledger could not judge it (busy, I/O): it stays queued and is sent again.
 */
export type RepairActionAnswer = (typeof REPAIR_ACTION_ANSWERS)[number];

/** A coded error of the ledger or endpoint (`test.session.*`). */
export interface RepairError {
  code: string;
  message: string;
}

/** One item of the endpoint's answer to an actions document. */
export interface RepairActionResult {
  id: string;
  findingId: string;
  requestId: string;
  outcome: RepairActionAnswer;
  /** The ledger's result (applied or duplicate); `to` is the finding's status after it. */
  result?: { to?: RepairStatus; replayed?: boolean; [key: string]: unknown };
  error?: RepairError;
}

/** The endpoint's answer to `{"protocol":"a3s.test.repair/1","actions":[…]}`. */
export interface RepairActionsResponse {
  protocol: "a3s.test.repair/1";
  actions: RepairActionResult[];
  /** The first `retry` item's error (the answer is then not 2xx). */
  error?: RepairError;
}

/** What the page keeps about an action that got a final answer, for the overlay to show. */
export interface RepairActionOutcome {
  actionId: string;
  repairId: string;
  kind: RepairAction["kind"];
  requestId: string;
  outcome: Exclude<RepairActionAnswer, "retry">;
  /** The finding's status after the action (applied or duplicate). */
  status?: RepairStatus;
  /** Why it was refused. */
  error?: RepairError;
  /** When the answer arrived (the page's clock). */
  answeredAt: string;
}

/** `listRepairActions()`: actions still queued, and the final answers of those that left. */
export interface RepairActionList {
  pending: RepairAction[];
  outcomes: RepairActionOutcome[];
}

/** Outcome of a submit. */
export interface SubmitRepairResult {
  repairs: RepairRecord[];
  /** `endpoint` when the POST succeeded; `endpoint_failed` keeps them in the page queue. */
  delivery: "page_queue" | "endpoint" | "endpoint_failed";
}

/** Where the repair queue persists. */
export type RepairStorageKind = "memory" | "session" | "local";

/** What changed in the page's repair queue (see `subscribeRepairs`). */
export const REPAIR_CHANGE_KINDS = [
  /** Findings were queued (`submitRepair`). */
  "queued",
  /** Queued findings were POSTed to the endpoint. */
  "delivered",
  /** Findings left the page queue (`takeRepairBatch`). */
  "taken",
  /** A lifecycle event changed a finding's status (`applyRepairEvent`). */
  "status",
  /** A human action was queued (`submitRepairAction`). */
  "action",
  /** The endpoint gave final answers to actions (`listRepairActions().outcomes`). */
  "answered",
  /** Queued actions left the page (`takeRepairActions`). */
  "actions_taken",
  /** Findings or actions were recovered from `repairStorage` when the runtime was installed. */
  "recovered",
] as const;

/** One kind of repair-queue change. */
export type RepairChangeKind = (typeof REPAIR_CHANGE_KINDS)[number];

/** One coalesced notification: every kind of change since the previous one. */
export interface RepairChange {
  /** Counts notifications of this runtime from 1, so a listener can tell it missed none. */
  sequence: number;
  /** The kinds of change, each once, in the order they first happened. */
  kinds: RepairChangeKind[];
}
