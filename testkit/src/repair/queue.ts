//! The page-side repair queue: validates drafts, captures untrusted page context at send time,
//! keeps the visible order, persists through a store, optionally POSTs to a same-origin
//! endpoint, mirrors lifecycle events (monotonic sequences, idempotent by request id) and queues
//! human actions until each has a final answer, reporting each change through `onChange`. It authorizes nothing: a session decides what happens to a finding.
//! Each finding and action records who queued it (`sentBy`): `human` only when the send came
//! with a person's trusted gesture in the Review Overlay (`gesture.ts`), else `page_script`.
//! What it hands out are copies, so page code cannot rewrite a queued record through them.
import { TestKitError } from "../errors";
import { REPAIR_PROTOCOL } from "../version";
import { finalOutcomes } from "./answers";
import { charCount, checkFindingId, fail, isRect, missingWords, oneOf } from "./check";
import { checkCriteria, checkRelations } from "./criteria";
import { checkLayout } from "./layout";
import type { RepairTransport } from "./endpoint";
import type { GestureCheck } from "./gesture";
import type { RepairQueueState, RepairStore } from "./storage";
import {
  REPAIR_STATUSES,
  type RepairAction,
  type RepairActionBatch,
  type RepairActionInput,
  type RepairActionList,
  type RepairActionTakeOptions,
  type RepairBatch,
  type RepairChangeKind,
  type RepairContext,
  type RepairDraft,
  type RepairEvent,
  type RepairRecord,
  type RepairSendOptions,
  type RepairSender,
  type RepairStatus,
  type RepairTakeOptions,
  type RepairTarget,
  type SubmitRepairResult,
} from "./types";

/** Longest instruction in characters. */
export const MAX_INSTRUCTION_CHARS = 8192;
/** Most records kept; the oldest ones that are no longer pending go first. */
export const MAX_KEPT_REPAIRS = 200;
const MAX_EVENTS_PER_REPAIR = 50;
/** Most final action answers kept for the overlay; the oldest go first. */
export const MAX_KEPT_OUTCOMES = 200;
/** Most actions in one POST (the endpoint's bound). */
const MAX_ACTIONS_PER_POST = 100;
/** Most ids one take may name (the ledger's batch bound). */
const MAX_TAKE_IDS = 100;

/** Dependencies of the queue. */
export interface RepairQueueDeps {
  store: RepairStore;
  transport?: RepairTransport;
  captureContext: (target: RepairTarget) => RepairContext;
  now: () => Date;
  newId: () => string;
  /** Told about every change the queue makes (the bridge coalesces them for `subscribeRepairs`). */
  onChange?: (kind: RepairChangeKind) => void;
  /** Whether a send's gesture is a person's in the Review Overlay; none: every send is page code's. */
  isHumanGesture?: GestureCheck;
}

/** The one text bound of findings and actions, as people read it. */
const TEXT_RULE = "at most 8,192 characters";

function checkTarget(t: unknown): RepairTarget {
  if (typeof t !== "object" || t === null) fail("target must be an object");
  const target = t as RepairTarget;
  const kind = oneOf(target.kind, ["node", "text", "region", "drawing"], "target.kind");
  if (!Array.isArray(target.nodeIds) || target.nodeIds.length > 64 || !target.nodeIds.every((id) => typeof id === "string" && id !== "" && id.length <= 128)) {
    fail("target.nodeIds must be an array of at most 64 node ids of at most 128 characters");
  }
  if (kind === "node" && target.nodeIds.length === 0) fail("a node target needs at least one node id");
  if ((kind === "region" || kind === "drawing") && !isRect(target.region)) fail(`a ${kind} target needs a region rect`);
  if (target.region !== undefined && (!isRect(target.region) || target.region.width < 0 || target.region.height < 0)) fail("target.region must be a rect with width and height >= 0");
  if (target.text !== undefined && (typeof target.text !== "string" || charCount(target.text) > MAX_INSTRUCTION_CHARS)) fail(`target.text must be a string of ${TEXT_RULE}`);
  if (target.layout !== undefined) checkLayout(target.layout);
  return target;
}

function checkDraft(d: unknown): RepairDraft {
  if (typeof d !== "object" || d === null) fail("a draft must be an object");
  const draft = d as RepairDraft;
  if (typeof draft.instruction !== "string" || draft.instruction.trim() === "") fail("instruction must be a non-empty string");
  if (charCount(draft.instruction) > MAX_INSTRUCTION_CHARS) fail(`instruction must be at most ${MAX_INSTRUCTION_CHARS} characters`);
  oneOf(draft.intent, ["fix", "change", "question", "approve"], "intent");
  oneOf(draft.severity, ["blocking", "important", "suggestion"], "severity");
  if (draft.id !== undefined) checkFindingId(draft.id, "id");
  if (draft.createdAt !== undefined && (typeof draft.createdAt !== "string" || draft.createdAt.length > 64)) fail("createdAt must be a string of at most 64 characters");
  checkCriteria(draft.successCriteria);
  checkRelations(draft.relations, draft.id);
  checkTarget(draft.target);
  return draft;
}

/** A deep copy of queue data (plain JSON values), so a caller cannot change the queue through it. */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function unknownRepair(id: unknown): never {
  throw new TestKitError("unknown_repair", `no repair "${String(id)}" on this page`);
}

/** The repair queue of one page. */
export class RepairQueue {
  #state: RepairQueueState;

  readonly #deps: RepairQueueDeps;

  constructor(deps: RepairQueueDeps) {
    this.#deps = deps;
    this.#state = deps.store.load();
    const s = this.#state;
    // Storage is writable by page code: what comes back from it was not seen being sent by a
    // person, so whatever still waits to be delivered counts as page code's.
    const pending = new Set(s.pending);
    for (const r of s.repairs) if (pending.has(r.id) || r.sentBy !== "human") r.sentBy = "page_script";
    for (const a of s.actions) a.sentBy = "page_script";
    if (s.repairs.length > 0 || s.actions.length > 0 || s.outcomes.length > 0) this.#changed("recovered");
  }

  #sender(options: RepairSendOptions | undefined): RepairSender {
    const gesture = typeof options === "object" && options !== null ? options.gesture : undefined;
    return this.#deps.isHumanGesture?.(gesture) === true ? "human" : "page_script";
  }

  #changed(kind: RepairChangeKind): void {
    this.#deps.onChange?.(kind);
  }

  #persist(): void {
    const pending = new Set(this.#state.pending);
    while (this.#state.repairs.length > MAX_KEPT_REPAIRS) {
      const index = this.#state.repairs.findIndex((r) => !pending.has(r.id));
      if (index < 0) break;
      this.#state.repairs.splice(index, 1);
    }
    this.#deps.store.save(this.#state);
  }

  /** Queues one finding or a batch (visible order kept); POSTs when an endpoint is set. */
  async submit(input: RepairDraft | readonly RepairDraft[], options?: RepairSendOptions): Promise<SubmitRepairResult> {
    // Read while the gesture is still being dispatched: nothing before this line awaits.
    const sentBy = this.#sender(options);
    const drafts = (Array.isArray(input) ? input : [input]).map(checkDraft);
    if (drafts.length === 0) fail("nothing to submit");
    const fresh: RepairRecord[] = [];
    const out: RepairRecord[] = [];
    const batchId = this.#deps.newId();
    for (const draft of drafts) {
      const existing = draft.id !== undefined ? this.#state.repairs.find((r) => r.id === draft.id) : undefined;
      if (existing !== undefined) {
        // Sending the same stable id again is idempotent.
        out.push(copy(existing));
        continue;
      }
      const context = this.#deps.captureContext(draft.target);
      const record: RepairRecord = {
        protocol: REPAIR_PROTOCOL,
        id: draft.id ?? this.#deps.newId(),
        batchId,
        createdAt: draft.createdAt ?? this.#deps.now().toISOString(),
        contextRevision: context.contextRevision,
        status: "queued",
        target: draft.target,
        instruction: draft.instruction,
        successCriteria: checkCriteria(draft.successCriteria),
        intent: draft.intent,
        severity: draft.severity,
        relations: checkRelations(draft.relations, draft.id),
        context,
        sequence: 0,
        events: [],
        delivery: "page_queue",
        sentBy,
      };
      fresh.push(record);
      out.push(record);
      this.#state.repairs.push(record);
      this.#state.pending.push(record.id);
    }
    this.#persist();
    if (fresh.length > 0) this.#changed("queued");
    if (this.#deps.transport === undefined || fresh.length === 0) return { repairs: out.map(copy), delivery: "page_queue" };
    const { ok } = await this.#deps.transport({ protocol: REPAIR_PROTOCOL, repairs: fresh });
    if (!ok) return { repairs: out.map(copy), delivery: "endpoint_failed" };
    const posted = new Set(fresh.map((r) => r.id));
    this.#state.pending = this.#state.pending.filter((id) => !posted.has(id));
    for (const r of fresh) r.delivery = "endpoint";
    this.#persist();
    this.#changed("delivered");
    return { repairs: out.map(copy), delivery: "endpoint" };
  }

  #pendingRecords(max: number | undefined): RepairRecord[] {
    const limit = max === undefined ? Infinity : max;
    if (limit !== Infinity && (!Number.isInteger(limit) || limit < 1)) fail("max must be a positive integer");
    const byId = new Map(this.#state.repairs.map((r) => [r.id, r]));
    const out: RepairRecord[] = [];
    for (const id of this.#state.pending) {
      const r = byId.get(id);
      if (r !== undefined) out.push(r);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The next pending findings without removing them. */
  peekBatch(options?: { max?: number }): RepairBatch {
    return { protocol: REPAIR_PROTOCOL, repairs: copy(this.#pendingRecords(options?.max)) };
  }

  /**
   * Removes and returns the next pending findings (a session drains them into its ledger). With
   * `ids`, only those are taken: a session that appended part of a peeked batch takes exactly
   * that part, and a finding sent meanwhile stays queued.
   */
  takeBatch(options?: RepairTakeOptions): RepairBatch {
    const ids = options?.ids;
    if (ids !== undefined && (!Array.isArray(ids) || ids.length > MAX_TAKE_IDS || !ids.every((id) => typeof id === "string"))) {
      fail(`ids must be an array of at most ${MAX_TAKE_IDS} finding ids`);
    }
    const wanted = ids === undefined ? undefined : new Set(ids);
    const repairs = this.#pendingRecords(options?.max).filter((r) => wanted === undefined || wanted.has(r.id));
    const taken = new Set(repairs.map((r) => r.id));
    this.#state.pending = this.#state.pending.filter((id) => !taken.has(id));
    for (const r of repairs) r.delivery = "taken";
    this.#persist();
    if (repairs.length > 0) this.#changed("taken");
    return { protocol: REPAIR_PROTOCOL, repairs: copy(repairs) };
  }

  /** Every finding this page knows, oldest first. */
  list(): RepairRecord[] {
    return copy(this.#state.repairs);
  }

  /** Mirrors a ledger event; older or repeated sequences are ignored (idempotent). */
  applyEvent(input: RepairEvent): RepairRecord {
    if (typeof input !== "object" || input === null) fail("event must be an object");
    const record = this.#state.repairs.find((r) => r.id === input.repairId);
    if (record === undefined) unknownRepair(input.repairId);
    if (!Number.isInteger(input.sequence) || input.sequence < 1) fail("sequence must be a positive integer");
    oneOf(input.status, REPAIR_STATUSES, "status");
    if (typeof input.requestId !== "string" || input.requestId === "") fail("requestId must be a non-empty string");
    if (typeof input.at !== "string" || Number.isNaN(Date.parse(input.at))) fail("at must be an ISO timestamp");
    oneOf(input.actor, ["human", "agent", "a3s-test", "page_script"], "actor");
    if (input.sequence <= record.sequence || record.events.some((e) => e.requestId === input.requestId)) return copy(record);
    const { repairId: _id, ...event } = input;
    record.status = input.status as RepairStatus;
    record.sequence = input.sequence;
    record.events.push(event);
    if (record.events.length > MAX_EVENTS_PER_REPAIR) record.events.splice(0, record.events.length - MAX_EVENTS_PER_REPAIR);
    this.#persist();
    this.#changed("status");
    return copy(record);
  }

  /** Queues a human action (reply/accept/dismiss/reopen); POSTs when an endpoint is set. */
  async submitAction(input: RepairActionInput, options?: RepairSendOptions): Promise<RepairAction> {
    // Read while the gesture is still being dispatched: nothing before this line awaits.
    const sentBy = this.#sender(options);
    if (typeof input !== "object" || input === null) fail("action must be an object");
    oneOf(input.kind, ["reply", "accept", "dismiss", "reopen"], "kind");
    if (!this.#state.repairs.some((r) => r.id === input.repairId)) unknownRepair(input.repairId);
    if (input.message !== undefined && (typeof input.message !== "string" || charCount(input.message) > MAX_INSTRUCTION_CHARS)) fail(`message must be ${TEXT_RULE}`);
    const status = this.#state.repairs.find((r) => r.id === input.repairId)?.status;
    const missing = missingWords(input.kind, status, input.message);
    if (missing === "reply") fail("a reply needs a message");
    if (missing === "reason") fail("dismissing a verified repair needs a reason");
    if (input.requestId !== undefined) checkFindingId(input.requestId, "requestId");
    const requestId = input.requestId ?? this.#deps.newId();
    const existing = this.#state.actions.find((a) => a.requestId === requestId);
    if (existing !== undefined) return copy(existing);
    const action: RepairAction = {
      id: this.#deps.newId(),
      repairId: input.repairId,
      kind: input.kind,
      requestId,
      createdAt: this.#deps.now().toISOString(),
      ...(input.message !== undefined ? { message: input.message } : {}),
      sentBy,
    };
    this.#state.actions.push(action);
    this.#persist();
    this.#changed("action");
    await this.#postActions();
    return copy(action);
  }

  /**
   * POSTs every queued action (the new one and those kept from earlier tries; the endpoint is
   * idempotent by request id). Each action with a final answer — applied, duplicate or refused —
   * leaves the queue and its outcome is kept; an action answered `retry`, or not answered at all
   * (network failure, malformed reply), stays for the next POST or drain.
   */
  async #postActions(): Promise<void> {
    if (this.#deps.transport === undefined || this.#state.actions.length === 0) return;
    const sent = this.#state.actions.slice(0, MAX_ACTIONS_PER_POST);
    const answer = await this.#deps.transport({ protocol: REPAIR_PROTOCOL, actions: sent });
    this.#answered(answer.body, sent);
  }

  /**
   * Keeps the final answers in `body` (the endpoint's `actions` answer shape) for the actions in
   * `sent`: those leave the queue with their outcome kept; the rest stay queued. Returns the
   * actions that left.
   */
  #answered(body: unknown, sent: readonly RepairAction[]): RepairAction[] {
    const answered = finalOutcomes(body, sent, this.#deps.now().toISOString());
    if (answered.size === 0) return [];
    const left = this.#state.actions.filter((a) => answered.has(a.requestId));
    this.#state.actions = this.#state.actions.filter((a) => !answered.has(a.requestId));
    this.#state.outcomes = [...this.#state.outcomes.filter((o) => !answered.has(o.requestId)), ...answered.values()];
    if (this.#state.outcomes.length > MAX_KEPT_OUTCOMES) this.#state.outcomes.splice(0, this.#state.outcomes.length - MAX_KEPT_OUTCOMES);
    this.#persist();
    this.#changed("answered");
    return left;
  }

  /** The first `max` (1–100, default 100) queued human actions, not removed. */
  peekActions(options?: { max?: number }): RepairActionBatch {
    const max = options?.max ?? MAX_ACTIONS_PER_POST;
    if (!Number.isInteger(max) || max < 1 || max > MAX_ACTIONS_PER_POST) fail(`max must be an integer in 1..=${MAX_ACTIONS_PER_POST}`);
    return { protocol: REPAIR_PROTOCOL, actions: copy(this.#state.actions.slice(0, max)) };
  }

  /**
   * Removes queued human actions and returns them. Without options, every one (the caller
   * becomes responsible for them). With `answers` — the per-item answers a session's ledger gave
   * the actions it peeked, in the endpoint's answer shape — exactly the actions with a final
   * answer leave, their outcomes kept as after a POST; an action answered `retry`, or not
   * answered, stays queued.
   */
  takeActions(options?: RepairActionTakeOptions): RepairActionBatch {
    if (options !== undefined) {
      if (typeof options !== "object" || options === null || !Array.isArray(options.answers) || options.answers.length > MAX_ACTIONS_PER_POST) {
        fail(`answers must be an array of at most ${MAX_ACTIONS_PER_POST} action answers`);
      }
      const left = this.#answered({ actions: options.answers }, this.#state.actions);
      if (left.length > 0) this.#changed("actions_taken");
      return { protocol: REPAIR_PROTOCOL, actions: copy(left) };
    }
    const actions = this.#state.actions;
    this.#state.actions = [];
    this.#persist();
    if (actions.length > 0) this.#changed("actions_taken");
    return { protocol: REPAIR_PROTOCOL, actions: copy(actions) };
  }

  /** Actions still queued, and the final answers of those that left (oldest first). */
  listActions(): RepairActionList {
    return { pending: copy(this.#state.actions), outcomes: copy(this.#state.outcomes) };
  }
}
