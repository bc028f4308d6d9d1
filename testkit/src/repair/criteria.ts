//! Validation of the parts of a finding that other tools act on: typed success criteria (which
//! the tool evaluates in the browser after a repair) and declared relations (which decide
//! conflicts). Both are bounded and strict so the page never queues a shape the ledger refuses.
import { charCount, checkFindingId, fail, isObject, oneOf, onlyKeys } from "./check";
import { SUCCESS_CRITERION_KINDS, TARGET_STATES, type RepairRelation, type SuccessCriterion, type TargetState } from "./types";

export { FINDING_ID_PATTERN } from "./check";

/** Most success criteria per finding. */
export const MAX_CRITERIA = 16;
/** Longest criterion text (prose, `equals` or `contains`) in characters. */
export const MAX_CRITERION_CHARS = 2048;
/** Most relations per finding. */
export const MAX_RELATIONS = 16;

function boundedText(v: unknown, where: string, nonEmpty: boolean): string {
  if (typeof v !== "string" || charCount(v) > MAX_CRITERION_CHARS) fail(`${where} must be a string of at most 2,048 characters`);
  if (nonEmpty && v.trim() === "") fail(`${where} must not be empty`);
  return v;
}

/** The one text field of each typed criterion kind that has one. */
const TEXT_FIELD: { [kind: string]: "equals" | "contains" } = { target_text: "equals", page_text: "contains", page_text_absent: "contains" };

function checkCriterion(c: unknown, index: number): string | SuccessCriterion {
  const where = `successCriteria[${index}]`;
  if (typeof c === "string") return boundedText(c, where, true);
  if (!isObject(c)) fail(`${where} must be a string or a typed criterion`);
  const kind = oneOf(c.kind, SUCCESS_CRITERION_KINDS, `${where}.kind`);
  const field = kind === "target_state" ? "state" : TEXT_FIELD[kind];
  onlyKeys(c, field === undefined ? ["kind"] : ["kind", field], where);
  if (field === undefined) return { kind } as SuccessCriterion;
  if (field === "state") return { kind, state: oneOf(c.state, TARGET_STATES, `${where}.state`) as TargetState } as SuccessCriterion;
  return { kind, [field]: boundedText(c[field], `${where}.${field}`, field === "contains") } as SuccessCriterion;
}

/** Fails unless `v` is undefined or an array of at most `max` entries. */
function boundedList(v: unknown, max: number, what: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > max) fail(`${what} must be an array of at most ${max} entries`);
  return v;
}

/** Checks success criteria: at most 16, each a bounded prose string or one typed criterion. */
export function checkCriteria(v: unknown): Array<string | SuccessCriterion> {
  return boundedList(v, MAX_CRITERIA, "successCriteria").map(checkCriterion);
}

/** Checks relations: at most 16 distinct `conflicts_with` entries naming another finding id. */
export function checkRelations(v: unknown, ownId: string | undefined): RepairRelation[] {
  const seen = new Set<string>();
  return boundedList(v, MAX_RELATIONS, "relations").map((r, i) => {
    const where = `relations[${i}]`;
    if (!isObject(r) || r.kind !== "conflicts_with") fail(`${where} must be { kind: "conflicts_with", findingId }`);
    onlyKeys(r, ["kind", "findingId"], where);
    const findingId = checkFindingId(r.findingId, `${where}.findingId`);
    if (findingId === ownId) fail(`${where}.findingId must name another finding`);
    if (seen.has(findingId)) fail(`${where} repeats "${findingId}"`);
    seen.add(findingId);
    return { kind: "conflicts_with", findingId };
  });
}
