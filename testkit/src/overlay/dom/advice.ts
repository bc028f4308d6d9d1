/**
 * The panel's "Advice" list: a design review's advice about the current page revision, kept
 * apart from drafts and sent findings because it is neither — a provider's opinion that decides
 * nothing. Each item shows its dimension, what it would weigh as a finding (`high` at most
 * *important*), its title, and on demand why and what to consider; its one button opens the
 * finding editor on the item's target. Reading or opening anything here queues nothing: only the
 * reviewer's instruction and Send make it work.
 */
import type { PageAdvice } from "../../advice/advice";
import { severityOf } from "../../advice/advice";
import type { Translate } from "../i18n";
import { buildSuggestionList } from "./suggestions";

/** What the list asks for. */
export interface AdviceListHandlers {
  /** Open the editor on this item's target (the reviewer writes the instruction). */
  draft(id: string): void;
}

/** Builds the Advice list (nothing when there is no advice for this revision). */
export function buildAdviceList(doc: Document, t: Translate, advice: PageAdvice | null, on: AdviceListHandlers): HTMLElement | null {
  if (advice === null) return null;
  return buildSuggestionList(doc, {
    part: "advice",
    heading: t("list.advice"),
    source: t("advice.source", { provider: advice.provider, revision: advice.revision }),
    empty: t("advice.empty"),
    items: advice.items.map((a, i) => ({
      attrs: { "data-advice": a.id, "data-priority": a.priority },
      badge: `A${i + 1}`,
      title: a.title,
      meta: `${t(`dimension.${a.dimension}`)} · ${t(`severity.${severityOf(a.priority)}`)}`,
      summary: t("advice.why"),
      details: [a.rationale, `${t("advice.consider")}: ${a.recommendation}`],
      draftLabel: t("advice.draft"),
      focus: `advice-draft-${a.id}`,
      onDraft: () => on.draft(a.id),
    })),
  });
}
