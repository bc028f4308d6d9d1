/**
 * The panel's "Advice" list: a design review's advice about the current page revision, kept
 * apart from drafts and sent findings because it is neither — a provider's opinion that decides
 * nothing. Each item shows its dimension, what it would weigh as a finding (`high` at most
 * *important*), its title, and on demand why and what to consider; its one button opens the
 * finding editor on the item's target. Reading or opening anything here queues nothing: only the
 * reviewer's instruction and Send make it work.
 */
import type { AdviceItem, PageAdvice } from "../../advice/advice";
import { severityOf } from "../../advice/advice";
import type { Translate } from "../i18n";
import { h } from "./el";

/** What the list asks for. */
export interface AdviceListHandlers {
  /** Open the editor on this item's target (the reviewer writes the instruction). */
  draft(id: string): void;
}

function item(doc: Document, t: Translate, a: AdviceItem, index: number, on: AdviceListHandlers): HTMLElement {
  const severity = severityOf(a.priority);
  return h(
    doc,
    "li",
    { class: "item advice", "data-advice": a.id, "data-priority": a.priority },
    h(
      doc,
      "div",
      { class: "body" },
      h(doc, "p", { class: "what" }, h(doc, "span", { class: "badge-inline", "aria-hidden": "true" }, `A${index + 1}`), ` ${a.title}`),
      h(doc, "p", { class: "meta" }, `${t(`dimension.${a.dimension}`)} · ${t(`severity.${severity}`)}`),
      h(doc, "details", {}, h(doc, "summary", {}, t("advice.why")), h(doc, "p", {}, a.rationale), h(doc, "p", {}, `${t("advice.consider")}: ${a.recommendation}`)),
    ),
    h(doc, "div", { class: "row actions" }, h(doc, "button", { type: "button", "data-focus": `advice-draft-${a.id}`, onclick: () => on.draft(a.id) }, t("advice.draft"))),
  );
}

/** Builds the Advice list (nothing when there is no advice for this revision). */
export function buildAdviceList(doc: Document, t: Translate, advice: PageAdvice | null, on: AdviceListHandlers): HTMLElement | null {
  if (advice === null) return null;
  return h(
    doc,
    "section",
    { class: "list advice-list", "aria-labelledby": "advice-heading", "data-part": "advice" },
    h(doc, "h3", { id: "advice-heading" }, `${t("list.advice")} (${advice.items.length})`),
    h(doc, "p", { class: "meta" }, t("advice.source", { provider: advice.provider, revision: advice.revision })),
    advice.items.length === 0 ? h(doc, "p", { class: "empty" }, t("advice.empty")) : h(doc, "ol", {}, ...advice.items.map((a, i) => item(doc, t, a, i, on))),
  );
}
