/**
 * `@a3s-lab/testkit/overlay`: the framework-free Review Overlay. A reviewer marks what they see
 * (element, multi, text, area, drawing, Layout Mode), saves drafts and explicitly sends findings
 * into the page repair queue; nothing here authorizes a repair by itself.
 */
export { mountReviewOverlay, bridgeProblem, type ReviewOverlayOptions } from "./mount";
export { resolveLocale, STRING_TABLES, type OverlayLocale, type OverlayLocaleOption, type StringKey } from "./i18n";
