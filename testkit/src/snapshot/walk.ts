//! The DOM walk: visits the elements of a scope in document order, including open shadow roots,
//! skipping script/style/template/meta and the Review Overlay's own host, stopping at redacted
//! regions and iframes. Produces flat entries with the nearest included ancestor as parent, the
//! owning component, and the nearest scroll container with its clip rect.
import type { Rect } from "../protocol";
import type { Platform, StyleView } from "../platform";
import type { RedactionRules } from "../privacy/redact";
import { intersect } from "./geometry";
import { ownTextOf, roleOf } from "./describe";
import type { NodeIdTable } from "./ids";

/** Tag of the element that `A3STestBoundary` renders when it needs a wrapper; walked through. */
export const BOUNDARY_WRAPPER_TAG = "a3s-test-boundary";
/** Tag of the Review Overlay host; never walked and never a change signal. */
export const OVERLAY_HOST_TAG = "a3s-review-overlay";

const SKIPPED = new Set(["script", "style", "template", "meta", "link", "noscript", "head", "title", "base"]);
const ALWAYS_INTERESTING = new Set(["iframe", "video", "audio", "canvas", "img", "label", "svg", "input", "select", "textarea", "button", "a"]);
const NON_SEMANTIC_ROLES = new Set(["presentation", "none", "generic"]);

/** Walk mode: `summary` keeps meaningful nodes only; `all` keeps every element. */
export type WalkMode = "summary" | "all";

/** One visited element. */
export interface WalkEntry {
  el: Element;
  id: string;
  /** Index of the nearest included ancestor entry, or -1. */
  parentIndex: number;
  componentId?: string;
  scrollContainerId?: string;
  clip: Rect | null;
  /** Border box in viewport CSS px, read on first use (see {@link entryRect}). */
  rect: Rect | null;
  style: StyleView;
  role?: string;
  testId?: string;
  ownText: string;
  visible: boolean;
  redacted: boolean;
  inShadow: boolean;
  /** Iteration order = document order. */
  order: number;
}

/** Inputs of {@link walk}. */
export interface WalkOptions {
  platform: Platform;
  ids: NodeIdTable;
  rules: RedactionRules;
  mode: WalkMode;
  /** Root element → component id, for every registered boundary root. */
  componentRoots: Map<Element, string>;
  /** Component id that owns the starting element(s), if any. */
  startComponentId?: string;
  /** Called for each open shadow root met (so revision signals can observe it). */
  onShadowRoot?: (root: ShadowRoot) => void;
  /** Stop after this many entries (a safety ceiling; not a response limit). */
  maxEntries: number;
}

/** Result of a walk. */
export interface WalkResult {
  entries: WalkEntry[];
  /** True when `maxEntries` stopped the walk. */
  overflow: boolean;
}

/** The entry's border box, read from the platform once. */
export function entryRect(entry: WalkEntry, platform: Platform): Rect {
  if (entry.rect === null) entry.rect = platform.rect(entry.el);
  return entry.rect;
}

/** Replaces boundary wrappers by their element children (recursively). */
export function expandRoots(roots: readonly Element[]): Element[] {
  const out: Element[] = [];
  for (const r of roots) {
    if (r.localName === BOUNDARY_WRAPPER_TAG) out.push(...expandRoots(Array.from(r.children)));
    else out.push(r);
  }
  return out;
}

/** True for elements the walk never enters or reports. */
export function isSkippedElement(el: Element): boolean {
  return SKIPPED.has(el.localName) || el.localName === OVERLAY_HOST_TAG;
}

/** True when `node` is inside the Review Overlay host (crossing shadow roots). */
export function isInsideOverlay(node: Node): boolean {
  let cur: Node | null = node;
  while (cur !== null) {
    if (cur.nodeType === 1 && (cur as Element).localName === OVERLAY_HOST_TAG) return true;
    const parent: Node | null = cur.parentNode;
    cur = parent !== null && parent.nodeType === 11 && (parent as ShadowRoot).host !== undefined ? (parent as ShadowRoot).host : parent;
  }
  return false;
}

/** Walks `starts` (and their subtrees) in document order. */
export function walk(starts: readonly Element[], options: WalkOptions): WalkResult {
  const entries: WalkEntry[] = [];
  let overflow = false;
  const { platform, ids, rules, mode } = options;

  interface Frame {
    parentIndex: number;
    componentId: string | undefined;
    scrollContainerId: string | undefined;
    clip: Rect | null;
    inShadow: boolean;
  }

  const visitChildren = (parent: ParentNode, frame: Frame): void => {
    for (let child = parent.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (overflow) return;
      visit(child, frame);
    }
  };

  const visit = (el: Element, frame: Frame): void => {
    if (isSkippedElement(el)) return;
    if (el.localName === BOUNDARY_WRAPPER_TAG) {
      // The wrapper is not reported, but it marks the boundary that owns its children.
      const owner = options.componentRoots.get(el);
      visitChildren(el, owner !== undefined ? { ...frame, componentId: owner } : frame);
      return;
    }
    if (entries.length >= options.maxEntries) {
      overflow = true;
      return;
    }
    const style = platform.style(el);
    const display = style.getPropertyValue("display");
    const componentId = options.componentRoots.get(el) ?? frame.componentId;
    const redacted = rules.matches(el);
    const role = redacted ? undefined : roleOf(el);
    const hasAttributes = el.hasAttributes();
    const testIdAttr = hasAttributes ? el.getAttribute("data-testid") : null;
    const testId = testIdAttr !== null && testIdAttr !== "" ? testIdAttr : undefined;
    const ownText = redacted || el.localName === "textarea" ? "" : ownTextOf(el);
    const shadow = el.shadowRoot;
    const scrolls = display !== "none" && platform.isScrollContainer(el, style);
    const include =
      mode === "all" ||
      redacted ||
      scrolls ||
      shadow !== null ||
      testId !== undefined ||
      ownText !== "" ||
      (role !== undefined && !NON_SEMANTIC_ROLES.has(role)) ||
      ALWAYS_INTERESTING.has(el.localName) ||
      options.componentRoots.has(el) ||
      (hasAttributes && ((el.hasAttribute("tabindex") && el.getAttribute("tabindex") !== "-1") || isEditable(el)));
    if (display === "none" && mode === "summary") return;
    let index = frame.parentIndex;
    if (include) {
      // "Visible" means rendered per CSS (not display:none, not visibility:hidden); size and
      // viewport position are geometry, read lazily so unreturned nodes cost no layout query.
      const visible = display !== "none" && style.getPropertyValue("visibility") !== "hidden";
      const rect = null;
      index = entries.length;
      const entry: WalkEntry = {
        el,
        id: ids.idOf(el),
        parentIndex: frame.parentIndex,
        clip: frame.clip,
        rect,
        style,
        ownText,
        visible,
        redacted,
        inShadow: frame.inShadow,
        order: index,
      };
      if (componentId !== undefined) entry.componentId = componentId;
      if (frame.scrollContainerId !== undefined) entry.scrollContainerId = frame.scrollContainerId;
      if (role !== undefined) entry.role = role;
      if (testId !== undefined) entry.testId = testId;
      entries.push(entry);
    }
    if (redacted || display === "none" || el.localName === "iframe") return;
    let next: Frame = { parentIndex: index, componentId, scrollContainerId: frame.scrollContainerId, clip: frame.clip, inShadow: frame.inShadow };
    if (scrolls) {
      const r = platform.rect(el);
      const clip: Rect = { x: r.x + el.clientLeft, y: r.y + el.clientTop, width: el.clientWidth, height: el.clientHeight };
      next = { ...next, scrollContainerId: ids.idOf(el), clip: frame.clip === null ? clip : (intersect(frame.clip, clip) ?? { x: clip.x, y: clip.y, width: 0, height: 0 }) };
    }
    if (shadow !== null) {
      options.onShadowRoot?.(shadow);
      visitChildren(shadow, { ...next, inShadow: true });
    }
    visitChildren(el, next);
  };

  for (const start of starts) {
    if (overflow) break;
    const root = start.getRootNode();
    visit(start, {
      parentIndex: -1,
      componentId: options.startComponentId,
      scrollContainerId: undefined,
      clip: null,
      inShadow: root instanceof ShadowRoot,
    });
  }
  return { entries, overflow };
}

function isEditable(el: Element): boolean {
  const v = el.getAttribute("contenteditable");
  return v !== null && v !== "false";
}
