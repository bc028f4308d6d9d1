/**
 * The shape the panel's lists of things a reviewer may turn into work share — design advice and
 * quality candidates from a run: a labelled section with its count and where it came from, and
 * items each with a numbered badge (matching its marker), a title, a meta line, details on
 * demand, and one "Make a draft" button. Neither list is drafts or findings; only the reviewer's
 * instruction and Send make work of an item.
 */
import type { Attrs } from "./el";
import { h } from "./el";

/** One item of a suggestion list. */
export interface SuggestionItem {
  /** Extra attributes of the `<li>` (`data-advice`, `data-candidate`, …). */
  attrs: Attrs;
  /** The marker's label (`A1`, `R1`). */
  badge: string;
  title: string;
  meta: string;
  /** The `<summary>` of the details, and their paragraphs. */
  summary: string;
  details: string[];
  /** The button's label, its `data-focus` key, and what it does. */
  draftLabel: string;
  focus: string;
  onDraft: () => void;
}

/** A list section. */
export interface SuggestionList {
  /** `data-part` and the class suffix (`advice`, `candidates`). */
  part: string;
  heading: string;
  source: string;
  empty: string;
  items: SuggestionItem[];
}

function item(doc: Document, it: SuggestionItem, part: string): HTMLElement {
  return h(
    doc,
    "li",
    { class: `item ${part}`, ...it.attrs },
    h(
      doc,
      "div",
      { class: "body" },
      h(doc, "p", { class: "what" }, h(doc, "span", { class: "badge-inline", "aria-hidden": "true" }, it.badge), ` ${it.title}`),
      h(doc, "p", { class: "meta" }, it.meta),
      h(doc, "details", {}, h(doc, "summary", {}, it.summary), ...it.details.map((d) => h(doc, "p", {}, d))),
    ),
    h(doc, "div", { class: "row actions" }, h(doc, "button", { type: "button", "data-focus": it.focus, onclick: it.onDraft }, it.draftLabel)),
  );
}

/** Builds one suggestion list. */
export function buildSuggestionList(doc: Document, list: SuggestionList): HTMLElement {
  const heading = `${list.part}-heading`;
  return h(
    doc,
    "section",
    { class: `list ${list.part}-list`, "aria-labelledby": heading, "data-part": list.part },
    h(doc, "h3", { id: heading }, `${list.heading} (${list.items.length})`),
    h(doc, "p", { class: "meta" }, list.source),
    list.items.length === 0 ? h(doc, "p", { class: "empty" }, list.empty) : h(doc, "ol", {}, ...list.items.map((it) => item(doc, it, list.part))),
  );
}
