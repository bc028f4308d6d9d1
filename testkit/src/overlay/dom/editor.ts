/**
 * The finding editor: instruction (accessible name "Instruction", at most 8,192 characters),
 * typed or plain success criteria, intent, severity and an optional `conflicts_with` finding,
 * with "Save draft", "Send" and "Cancel". It reports field edits to the controller and never
 * sends by itself.
 */
import type { Translate } from "../i18n";
import type { Editing } from "../state/machine";
import { CRITERION_KINDS, VALUELESS_CRITERIA, type CriterionField, type CriterionKind, type FindingFields } from "../state/types";
import { MAX_INSTRUCTION } from "../state/toRepair";
import { charCount } from "../../repair/check";
import { TARGET_STATES } from "../../repair/types";
import { h } from "./el";

/** What the editor asks the controller to do. */
export interface EditorHandlers {
  fields(patch: Partial<FindingFields>): void;
  /** Save; `gesture` is the click that asked (it may auto-send). */
  save(gesture: Event): void;
  /** Send this finding; `gesture` is the click that asked. */
  send(gesture: Event): void;
  cancel(): void;
  remove(): void;
}

/** A finding the new one may conflict with. */
export interface ConflictChoice {
  id: string;
  label: string;
}

const INTENTS = ["fix", "change", "question", "approve"] as const;
const SEVERITIES = ["blocking", "important", "suggestion"] as const;

function radios(doc: Document, t: Translate, name: "intent" | "severity", values: readonly string[], checked: string, onPick: (v: string) => void): HTMLElement {
  const legend = h(doc, "legend", {}, t(name === "intent" ? "editor.intent" : "editor.severity"));
  const options = values.map((v) => {
    const input = h(doc, "input", { type: "radio", name, value: v, id: `${name}-${v}`, checked: v === checked, "data-focus": `${name}-${v}`, onchange: () => onPick(v) });
    return h(doc, "label", { class: "choice", for: `${name}-${v}` }, input, t(`${name}.${v}` as Parameters<Translate>[0]));
  });
  return h(doc, "fieldset", { class: `radios ${name}` }, legend, ...options);
}

/** Builds the editor for `editing`. */
export function buildEditor(doc: Document, t: Translate, editing: Editing, targetSummary: string, conflicts: readonly ConflictChoice[], on: EditorHandlers): HTMLElement {
  const fields = editing.fields;
  let criteria: CriterionField[] = fields.criteria.map((c) => ({ ...c }));

  const count = h(doc, "p", { class: "count", id: "instruction-count" }, t("editor.instructionCount", { count: charCount(fields.instruction), max: MAX_INSTRUCTION }));
  // The limit is in characters (as the ledger counts); `maxlength` counts UTF-16 units, so the
  // field allows twice the limit and saving checks the characters.
  const instruction = h(doc, "textarea", { id: "instruction", rows: 4, maxlength: 2 * MAX_INSTRUCTION, "aria-describedby": "instruction-count", "data-focus": "instruction" }) as HTMLTextAreaElement;
  instruction.value = fields.instruction;
  instruction.addEventListener("input", () => {
    count.textContent = t("editor.instructionCount", { count: charCount(instruction.value), max: MAX_INSTRUCTION });
    on.fields({ instruction: instruction.value });
  });

  const list = h(doc, "ol", { class: "criteria" });
  const renderCriteria = (focusKey?: string) => {
    list.replaceChildren(
      ...criteria.map((c, i) => {
        const kind = h(doc, "select", { id: `criterion-kind-${i}`, "aria-label": `${t("editor.criterionKind")} ${i + 1}`, "data-focus": `criterion-kind-${i}` }) as HTMLSelectElement;
        for (const k of CRITERION_KINDS) kind.append(h(doc, "option", { value: k, selected: k === c.kind }, t(`criterion.${k}`)));
        kind.addEventListener("change", () => {
          const next = kind.value as CriterionKind;
          criteria = criteria.map((x, j) => (j === i ? { kind: next, value: next === "target_state" ? TARGET_STATES[0] : x.kind === "target_state" ? "" : x.value } : x));
          on.fields({ criteria });
          renderCriteria(`criterion-kind-${i}`);
        });
        const valueAttrs = { id: `criterion-value-${i}`, "aria-label": `${t("editor.criterionValue")} ${i + 1}`, "data-focus": `criterion-value-${i}`, hidden: VALUELESS_CRITERIA.has(c.kind) };
        const value = (c.kind === "target_state" ? h(doc, "select", valueAttrs, ...TARGET_STATES.map((st) => h(doc, "option", { value: st, selected: st === c.value }, t(`state.${st}`)))) : h(doc, "input", { type: "text", ...valueAttrs })) as HTMLInputElement | HTMLSelectElement;
        value.value = c.value;
        value.addEventListener(c.kind === "target_state" ? "change" : "input", () => {
          criteria = criteria.map((x, j) => (j === i ? { ...x, value: value.value } : x));
          on.fields({ criteria });
        });
        const remove = h(doc, "button", { type: "button", class: "ghost", "data-focus": `criterion-remove-${i}`, onclick: () => {
          criteria = criteria.filter((_, j) => j !== i);
          on.fields({ criteria });
          renderCriteria(criteria.length > 0 ? `criterion-kind-${Math.min(i, criteria.length - 1)}` : "criterion-add");
        } }, t("editor.removeCriterion", { index: i + 1 }));
        return h(doc, "li", { class: "criterion" }, kind, value, remove);
      }),
    );
    if (focusKey !== undefined) (list.closest("form")?.querySelector(`[data-focus="${focusKey}"]`) as HTMLElement | null)?.focus();
  };
  const add = h(doc, "button", { type: "button", "data-focus": "criterion-add", onclick: () => {
    criteria = [...criteria, { kind: "text", value: "" }];
    on.fields({ criteria });
    renderCriteria(`criterion-kind-${criteria.length - 1}`);
  } }, t("editor.addCriterion"));

  const conflict = h(doc, "select", { id: "conflicts", "data-focus": "conflicts" }) as HTMLSelectElement;
  conflict.append(h(doc, "option", { value: "" }, t("editor.noConflict")));
  for (const c of conflicts) if (c.id !== editing.id) conflict.append(h(doc, "option", { value: c.id, selected: c.id === fields.conflictsWith }, c.label));
  conflict.addEventListener("change", () => on.fields({ conflictsWith: conflict.value === "" ? null : conflict.value }));

  const form = h(
    doc,
    "form",
    { class: "editor", "aria-labelledby": "editor-heading", "data-part": "editor", onsubmit: (e: Event) => e.preventDefault() },
    h(doc, "h3", { id: "editor-heading" }, t("editor.heading")),
    h(doc, "p", { class: "target" }, h(doc, "strong", {}, `${t("editor.target")}: `), targetSummary),
    h(doc, "label", { for: "instruction" }, t("editor.instruction")),
    instruction,
    count,
    h(doc, "fieldset", { class: "criteria-set" }, h(doc, "legend", {}, t("editor.criteria")), list, add),
    radios(doc, t, "intent", INTENTS, fields.intent, (v) => on.fields({ intent: v as FindingFields["intent"] })),
    radios(doc, t, "severity", SEVERITIES, fields.severity, (v) => on.fields({ severity: v as FindingFields["severity"] })),
    h(doc, "label", { for: "conflicts" }, t("editor.conflicts")),
    conflict,
    h(
      doc,
      "div",
      { class: "row buttons" },
      h(doc, "button", { type: "button", class: "primary", "data-focus": "save", onclick: (e: Event) => on.save(e) }, t("editor.save")),
      h(doc, "button", { type: "button", "data-focus": "send", onclick: (e: Event) => on.send(e) }, t("editor.send")),
      h(doc, "button", { type: "button", class: "ghost", "data-focus": "cancel", onclick: () => on.cancel() }, t("editor.cancel")),
      editing.saved ? h(doc, "button", { type: "button", class: "ghost danger", "data-focus": "delete", onclick: () => on.remove() }, t("editor.delete")) : null,
    ),
  );
  renderCriteria();
  return form;
}
