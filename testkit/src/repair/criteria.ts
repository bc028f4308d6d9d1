//! Validation of the parts of a finding that other tools act on: typed success criteria (which
//! the tool evaluates in the browser after a repair) and declared relations (which decide
//! conflicts). Both are bounded and strict so the page never queues a shape the ledger refuses.
import { TestKitError } from "../errors";
import { SUCCESS_CRITERION_KINDS, TARGET_STATES, type RepairRelation, type SuccessCriterion, type TargetState } from "./types";

/** Most success criteria per finding. */
export const MAX_CRITERIA = 16;
/** Longest criterion text (prose, `equals` or `contains`) in characters. */
export const MAX_CRITERION_CHARS = 2048;
/** Most relations per finding. */
export const MAX_RELATIONS = 16;
/** Finding ids: the rule the ledger applies (1–64 of `A-Z a-z 0-9 _ -`, no leading `-`). */
export const FINDING_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

function fail(message: string): never {
  throw new TestKitError("invalid_repair", message);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function onlyKeys(o: Record<string, unknown>, keys: readonly string[], where: string): void {
  const extra = Object.keys(o).filter((k) => !keys.includes(k));
  if (extra.length > 0) fail(`${where} has unknown field "${extra[0]}"`);
}

function boundedText(v: unknown, where: string, nonEmpty: boolean): string {
  if (typeof v !== "string" || v.length > MAX_CRITERION_CHARS) fail(`${where} must be a string of at most 2,048 characters`);
  if (nonEmpty && v.trim() === "") fail(`${where} must not be empty`);
  return v;
}

function checkCriterion(c: unknown, index: number): string | SuccessCriterion {
  const where = `successCriteria[${index}]`;
  if (typeof c === "string") return boundedText(c, where, true);
  if (!isObject(c)) fail(`${where} must be a string or a typed criterion`);
  const kind = c.kind;
  if (typeof kind !== "string" || !(SUCCESS_CRITERION_KINDS as readonly string[]).includes(kind)) {
    fail(`${where}.kind must be one of ${SUCCESS_CRITERION_KINDS.join(", ")}`);
  }
  switch (kind) {
    case "target_text":
      onlyKeys(c, ["kind", "equals"], where);
      return { kind, equals: boundedText(c.equals, `${where}.equals`, false) };
    case "page_text":
    case "page_text_absent":
      onlyKeys(c, ["kind", "contains"], where);
      return { kind, contains: boundedText(c.contains, `${where}.contains`, true) };
    case "target_state":
      onlyKeys(c, ["kind", "state"], where);
      if (typeof c.state !== "string" || !(TARGET_STATES as readonly string[]).includes(c.state)) {
        fail(`${where}.state must be one of ${TARGET_STATES.join(", ")}`);
      }
      return { kind, state: c.state as TargetState };
    default:
      onlyKeys(c, ["kind"], where);
      return { kind: kind as "target_visible" | "target_hidden" };
  }
}

/** Checks success criteria: at most 16, each a bounded prose string or one typed criterion. */
export function checkCriteria(v: unknown): Array<string | SuccessCriterion> {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_CRITERIA) fail(`successCriteria must be an array of at most ${MAX_CRITERIA} entries`);
  return v.map(checkCriterion);
}

/** Checks relations: at most 16 distinct `conflicts_with` entries naming another finding id. */
export function checkRelations(v: unknown, ownId: string | undefined): RepairRelation[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_RELATIONS) fail(`relations must be an array of at most ${MAX_RELATIONS} entries`);
  const seen = new Set<string>();
  return v.map((r, i) => {
    const where = `relations[${i}]`;
    if (!isObject(r) || r.kind !== "conflicts_with") fail(`${where} must be { kind: "conflicts_with", findingId }`);
    onlyKeys(r, ["kind", "findingId"], where);
    if (typeof r.findingId !== "string" || !FINDING_ID_PATTERN.test(r.findingId)) fail(`${where}.findingId must be 1-64 characters of A-Z a-z 0-9 _ - (not starting with -)`);
    if (r.findingId === ownId) fail(`${where}.findingId must name another finding`);
    if (seen.has(r.findingId)) fail(`${where} repeats "${r.findingId}"`);
    seen.add(r.findingId);
    return { kind: "conflicts_with", findingId: r.findingId };
  });
}
