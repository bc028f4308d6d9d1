//! `nodeIdOf(element)`: the private node id a scoped or forensic snapshot of the current revision
//! reports for an element, found by walking up from the element instead of projecting the page.
//! It answers null wherever a snapshot would never report the element: outside this document or
//! detached, the document and body themselves, inside the Review Overlay's host, under a skipped
//! tag (script, style, template…), inside a redacted region (the redacted root included: a
//! reviewer's mark there falls back to its region), or below a `display: none` ancestor. The id
//! is assigned in the same WeakMap side table snapshots use; nothing is written to the DOM.
import { TestKitError } from "../errors";
import type { Platform } from "../platform";
import type { RedactionRules } from "../privacy/redact";
import { parentAcrossShadow } from "../snapshot/components";
import type { NodeIdTable } from "../snapshot/ids";
import { BOUNDARY_WRAPPER_TAG, isInsideOverlay, isSkippedTag } from "../snapshot/walk";

/** What finding an element's id needs from the bridge. */
export interface NodeIdDeps {
  doc: Document;
  ids: NodeIdTable;
  rules: RedactionRules;
  platform: Platform;
}

/** Deepest ancestor chain followed (a guard against pathological nesting). */
const MAX_DEPTH = 4096;

/** True when `el` is reported by scoped snapshots of the current page. */
function reportable(el: Element, deps: NodeIdDeps): boolean {
  const { doc } = deps;
  if (!el.isConnected || el.ownerDocument !== doc || el === doc.body || el === doc.documentElement) return false;
  if (el.localName === BOUNDARY_WRAPPER_TAG || isInsideOverlay(el) || deps.rules.covers(el)) return false;
  let underBody = false;
  let depth = 0;
  for (let cur: Element | null = el; cur !== null && depth < MAX_DEPTH; cur = parentAcrossShadow(cur), depth += 1) {
    if (cur === doc.body) {
      underBody = true;
      break;
    }
    if (isSkippedTag(cur.localName)) return false;
    // The element itself may be display:none (snapshots report it as not visible); its
    // descendants are never walked.
    if (cur !== el && deps.platform.style(cur).getPropertyValue("display") === "none") return false;
  }
  return underBody;
}

/** The node id of `el` on the current revision, or null when no snapshot would report it. */
export function nodeIdOf(el: unknown, deps: NodeIdDeps): string | null {
  if (typeof el !== "object" || el === null || (el as Node).nodeType !== 1) {
    throw new TestKitError("invalid_request", "nodeIdOf needs an element");
  }
  const element = el as Element;
  return reportable(element, deps) ? deps.ids.idOf(element) : null;
}
