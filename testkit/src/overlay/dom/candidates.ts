/**
 * The panel's "Candidates" list: the latest run's failed and flaky scenarios on this page
 * (`a3s.test.run-candidates/1`), labelled as coming from the run. A candidate is the runner's
 * finding about its own suite, not the reviewer's: listing or reading it queues nothing and
 * changes no verdict; its one button opens the finding editor on the failing step's element
 * (when the page still has exactly one) for the reviewer to write the instruction.
 */
import type { RunCandidates } from "../candidates/feed";
import type { Translate } from "../i18n";
import { buildSuggestionList } from "./suggestions";

/** What the list asks for. */
export interface CandidateListHandlers {
  /** Open the editor on this candidate's element (or the page). */
  draft(id: string): void;
  /** Whether the candidate's element is on the page now (it then has a marker). */
  onPage(id: string): boolean;
}

/** Builds the Candidates list (nothing when the overlay reads no feed). */
export function buildCandidateList(doc: Document, t: Translate, feed: RunCandidates | null, on: CandidateListHandlers): HTMLElement | null {
  if (feed === null) return null;
  return buildSuggestionList(doc, {
    part: "candidates",
    heading: t("list.candidates"),
    source: feed.run_id === undefined ? t("candidates.noRun") : t("candidates.source", { run: feed.run_id }),
    empty: t("candidates.empty"),
    items: feed.candidates.map((c, i) => ({
      attrs: { "data-candidate": c.id, "data-status": c.status },
      badge: `R${i + 1}`,
      title: c.name,
      meta: `${t(`candidates.status.${c.status}`)} · ${c.code}${c.target !== undefined ? ` · ${c.target}` : ""}${on.onPage(c.id) ? "" : ` · ${t("candidates.notHere")}`}`,
      summary: t("candidates.why"),
      details: [c.message, ...(c.location !== undefined ? [`${t("candidates.step")}: ${c.location}`] : [])],
      draftLabel: t("advice.draft"),
      focus: `candidate-draft-${c.id}`,
      onDraft: () => on.draft(c.id),
    })),
  });
}
