/**
 * Bilingual search over the component catalog, and the rule that turns what the reviewer chose
 * into `LayoutPlacement.componentType`. Pure (no DOM), so ranking is unit-tested directly.
 *
 * A query matches an entry's names and keywords in both languages whatever the display locale is
 * (a Chinese-speaking reviewer may still type "modal"). Ranking: an exact match beats a prefix
 * match, which beats a match at the start of a later word, which beats any other substring; ties
 * go to names over keywords, then to the display locale's fields, then to catalog order.
 * @module
 */
import { COMPONENT_CATALOG, type CatalogEntry } from "./catalog";

/** How well a query matched one entry; lower is better. */
export const MATCH_LEVELS = ["exact", "prefix", "word-prefix", "substring"] as const;
/** One of {@link MATCH_LEVELS}. */
export type MatchLevel = (typeof MATCH_LEVELS)[number];

/** One search hit, with how it matched (the combobox only shows `entry`). */
export interface CatalogHit {
  /** The matching catalog entry. */
  entry: CatalogEntry;
  /** The best way the query matched any of its fields. */
  level: MatchLevel;
}

/** Case-folds and width-folds text (full-width Latin letters match their ASCII forms). */
export function normalizeQuery(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim().replace(/\s+/g, " ");
}

function levelOf(field: string, query: string): number {
  const f = normalizeQuery(field);
  if (f === query) return 0;
  if (f.startsWith(query)) return 1;
  const at = f.indexOf(query);
  if (at < 0) return -1;
  // A later word starts here (after a space or hyphen), e.g. "dialog" in "modal dialog".
  const before = f[at - 1];
  return before === " " || before === "-" ? 2 : 3;
}

interface Scored {
  entry: CatalogEntry;
  level: number;
  tie: number;
  order: number;
}

/**
 * Catalog entries matching `query`, best first. An empty query lists the whole catalog in order,
 * so the listbox can be browsed with the arrow keys before anything is typed.
 */
export function searchCatalog(query: string, locale: "en" | "zh-CN", catalog: readonly CatalogEntry[] = COMPONENT_CATALOG): CatalogHit[] {
  const q = normalizeQuery(query);
  if (q === "") return catalog.map((entry) => ({ entry, level: "substring" }));
  const scored: Scored[] = [];
  catalog.forEach((entry, order) => {
    const localNames = locale === "zh-CN" ? [entry.zhCN] : [entry.en, entry.id];
    const otherNames = locale === "zh-CN" ? [entry.en, entry.id] : [entry.zhCN];
    const localWords = locale === "zh-CN" ? entry.keywords.zhCN : entry.keywords.en;
    const otherWords = locale === "zh-CN" ? entry.keywords.en : entry.keywords.zhCN;
    // tie: 0 local name, 1 other-language name, 2 local keyword, 3 other-language keyword.
    const groups: ReadonlyArray<readonly string[]> = [localNames, otherNames, localWords, otherWords];
    let best: { level: number; tie: number } | undefined;
    groups.forEach((fields, tie) => {
      for (const field of fields) {
        const level = levelOf(field, q);
        if (level < 0) continue;
        if (best === undefined || level < best.level || (level === best.level && tie < best.tie)) best = { level, tie };
      }
    });
    if (best !== undefined) scored.push({ entry, level: best.level, tie: best.tie, order });
  });
  scored.sort((a, b) => a.level - b.level || a.tie - b.tie || a.order - b.order);
  return scored.map((s) => ({ entry: s.entry, level: MATCH_LEVELS[s.level] ?? "substring" }));
}

/** What the reviewer settled on in the component-type field. */
export type ComponentChoice =
  /** Picked from the catalog: stored as the entry's stable id. */
  | { kind: "catalog"; id: string }
  /** Typed a project component name: stored exactly as typed. */
  | { kind: "project"; name: string };

/** The `componentType` a choice stores: a catalog id, or the typed name verbatim (never trimmed or re-cased). */
export function componentTypeOf(choice: ComponentChoice): string {
  return choice.kind === "catalog" ? choice.id : choice.name;
}
