/**
 * Shapes the overlay's pure core works with: marking modes, the editable form of a finding and
 * a saved draft. Targets are the queue's own `RepairTarget`, so nothing is translated at send
 * time except the criteria and relations.
 */
import type { RepairIntent, RepairSeverity, RepairTarget } from "../../repair/types";

/** A marking mode started by its key. */
export type MarkMode = "element" | "multi" | "text" | "area" | "drawing";

/** Every marking mode in toolbar order, with its key. */
export const MARK_MODES: ReadonlyArray<{ mode: MarkMode; key: string }> = [
  { mode: "element", key: "e" },
  { mode: "multi", key: "m" },
  { mode: "text", key: "t" },
  { mode: "area", key: "a" },
  { mode: "drawing", key: "d" },
];

/** Kinds of success criterion the editor offers; `text` is a plain-language criterion. */
export const CRITERION_KINDS = ["text", "target_text", "page_text", "page_text_absent", "target_visible", "target_hidden", "target_state"] as const;
/** A kind of success criterion. */
export type CriterionKind = (typeof CRITERION_KINDS)[number];
/** Kinds that carry no value. */
export const VALUELESS_CRITERIA: ReadonlySet<CriterionKind> = new Set(["target_visible", "target_hidden"]);

/** One success criterion as the editor holds it. */
export interface CriterionField {
  kind: CriterionKind;
  /** Text, expected text, page text or state name; unused by valueless kinds. */
  value: string;
}

/** The editable fields of a finding. */
export interface FindingFields {
  instruction: string;
  criteria: CriterionField[];
  intent: RepairIntent;
  severity: RepairSeverity;
  /** Id of another finding this one conflicts with, or null. */
  conflictsWith: string | null;
}

/** A saved (not sent) finding. Order in the draft list is the visible workspace order. */
export interface Draft extends FindingFields {
  /** Stable id, kept when the draft is sent. */
  id: string;
  /** ISO creation time, kept when the draft is sent. */
  createdAt: string;
  target: RepairTarget;
  /** Why the last send of this draft failed, if it did. */
  sendError?: string;
}

/** Default fields of a new finding. */
export function emptyFields(): FindingFields {
  return { instruction: "", criteria: [], intent: "fix", severity: "important", conflictsWith: null };
}
