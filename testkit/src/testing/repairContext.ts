//! Test-only: a minimal repair context (no components, hints or nodes) on a page of the given
//! viewport, for tests that queue or build repairs. Not exported by the package.
import type { RepairContext } from "../repair/types";

/** A context at `contextRevision` on a `width` × `height` viewport whose document is as large. */
export function repairContext(contextRevision: number, width: number, height: number): RepairContext {
  const viewport = () => ({ width, height, dpr: 1 });
  return {
    untrusted: true,
    contextRevision,
    page: { id: "p", url: "http://localhost/", route: "/", title: "", ready: true, viewport: viewport(), document: { width, height }, scroll: { x: 0, y: 0 }, language: "en", theme: "light" },
    route: "/",
    viewport: viewport(),
    components: [],
    sourceHints: [],
    locators: [],
    targetNodes: [],
    nearbyNodes: [],
    facts: {},
  };
}
