/**
 * Turns an overlay draft into the queue's `RepairDraft`: typed success criteria (plain text
 * stays a string), the `conflicts_with` relation by finding id, and the stable id and creation
 * time of the draft. Also checks what the editor can check before anything is sent.
 */
import { charCount } from "../../repair/check";
import { TARGET_STATES, type RepairDraft, type SuccessCriterion, type TargetState } from "../../repair/types";
import type { CriterionField, Draft } from "./types";

/** Longest instruction in characters (the queue enforces the same bound). */
export const MAX_INSTRUCTION = 8192;

/** One criterion in the queue's form, or null when it has no usable value. */
export function toCriterion(c: CriterionField): string | SuccessCriterion | null {
  const value = c.value.trim();
  switch (c.kind) {
    case "text":
      return value === "" ? null : value;
    case "target_text":
      return { kind: "target_text", equals: c.value };
    case "page_text":
      return value === "" ? null : { kind: "page_text", contains: c.value };
    case "page_text_absent":
      return value === "" ? null : { kind: "page_text_absent", contains: c.value };
    case "target_visible":
      return { kind: "target_visible" };
    case "target_hidden":
      return { kind: "target_hidden" };
    case "target_state":
      return (TARGET_STATES as readonly string[]).includes(value) ? { kind: "target_state", state: value as TargetState } : null;
  }
}

/** Why a draft cannot be sent, or null. */
export function draftProblem(d: Pick<Draft, "instruction">): "error.instruction" | "error.instructionTooLong" | null {
  if (d.instruction.trim() === "") return "error.instruction";
  if (charCount(d.instruction) > MAX_INSTRUCTION) return "error.instructionTooLong";
  return null;
}

/** The queue's draft for `d`. */
export function toRepairDraft(d: Draft): RepairDraft {
  const successCriteria = d.criteria.map(toCriterion).filter((c): c is string | SuccessCriterion => c !== null);
  return {
    id: d.id,
    createdAt: d.createdAt,
    target: d.target,
    instruction: d.instruction,
    successCriteria,
    intent: d.intent,
    severity: d.severity,
    relations: d.conflictsWith !== null ? [{ kind: "conflicts_with", findingId: d.conflictsWith }] : [],
  };
}
