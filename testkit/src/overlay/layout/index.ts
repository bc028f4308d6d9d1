/**
 * Layout Mode of the Review Overlay: the editor the overlay mounts (`mountLayoutEditor`), the
 * built-in bilingual component catalog, its search, and the pure builders and rules of the
 * `LayoutPlacement`/`LayoutRearrange` targets. The overlay owns picking on the page; this module
 * owns turning the reviewer's choices into a structured, validated layout target.
 * @module
 */
export { mountLayoutEditor, type LayoutEditor, type LayoutEditorOptions, type LayoutTarget } from "./editor";
export { COMPONENT_CATALOG, catalogEntry, catalogName, type CatalogEntry } from "./catalog";
export { searchCatalog, componentTypeOf, normalizeQuery, type CatalogHit, type ComponentChoice, type MatchLevel } from "./search";
export {
  buildPlacement,
  buildRearrange,
  checkRect,
  MAX_LAYOUT_TEXT_CHARS,
  VIEWPORT_SLACK_PX,
  type LayoutIssue,
  type LayoutIssueCode,
  type LayoutResult,
  type PlacementInput,
  type RearrangeInput,
  type ViewportSize,
} from "./target";
export type { LayoutLocale, LayoutStringKey } from "./strings";
