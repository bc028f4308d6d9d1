//! Reads the endpoint's per-item answer to an actions document (`RepairActionsResponse`) and
//! turns each final answer into the `RepairActionOutcome` the page keeps. The answer is read
//! defensively: an item that does not match an action that was sent, or that is not well formed,
//! is ignored, so the action stays queued and nothing is lost on a malformed reply.
import { REPAIR_ACTION_ANSWERS, REPAIR_STATUSES, type RepairAction, type RepairActionOutcome, type RepairError, type RepairStatus } from "./types";

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function errorOf(v: unknown): RepairError | undefined {
  const e = record(v);
  if (e === undefined || typeof e.code !== "string" || typeof e.message !== "string") return undefined;
  return { code: e.code.slice(0, 128), message: e.message.slice(0, 1024) };
}

function statusOf(v: unknown): RepairStatus | undefined {
  const to = record(v)?.to;
  return typeof to === "string" && (REPAIR_STATUSES as readonly string[]).includes(to) ? (to as RepairStatus) : undefined;
}

/**
 * The final outcomes in `body` for the actions in `sent`, by request id. Items answered `retry`,
 * missing, or malformed are absent: those actions stay queued for the next POST or drain.
 */
export function finalOutcomes(body: unknown, sent: readonly RepairAction[], answeredAt: string): Map<string, RepairActionOutcome> {
  const out = new Map<string, RepairActionOutcome>();
  const items = record(body)?.actions;
  if (!Array.isArray(items)) return out;
  const byRequest = new Map(sent.map((a) => [a.requestId, a]));
  for (const raw of items) {
    const item = record(raw);
    if (item === undefined || typeof item.requestId !== "string") continue;
    const action = byRequest.get(item.requestId);
    if (action === undefined || item.id !== action.id || item.findingId !== action.repairId) continue;
    const answer = item.outcome;
    if (typeof answer !== "string" || !(REPAIR_ACTION_ANSWERS as readonly string[]).includes(answer) || answer === "retry") continue;
    const error = errorOf(item.error);
    if (answer === "refused" && error === undefined) continue;
    const status = answer === "refused" ? undefined : statusOf(item.result);
    out.set(action.requestId, {
      actionId: action.id,
      repairId: action.repairId,
      kind: action.kind,
      requestId: action.requestId,
      outcome: answer as RepairActionOutcome["outcome"],
      ...(status !== undefined ? { status } : {}),
      ...(error !== undefined && answer === "refused" ? { error } : {}),
      answeredAt,
    });
  }
  return out;
}
