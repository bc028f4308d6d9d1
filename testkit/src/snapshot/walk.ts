//! The DOM walk: visits the elements of a scope in document order, including open shadow roots,
//! skipping script/style/template/meta and the Review Overlay's own host, stopping at redacted
//! regions and iframes. Produces flat entries with the nearest included ancestor as parent, the
//! owning component, and the nearest scroll container with its clip rect.
import type { Rect } from "../protocol";
import type { Platform, StyleView } from "../platform";
import type { RedactionRules } from "../privacy/redact";
import { markAbove, type ChangeMarks } from "./changes";
import { intersect } from "./geometry";
import { readOwnFacts, type OwnFacts, type OwnFactsMemo } from "./ownFacts";
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
  componentId: string | undefined;
  scrollContainerId: string | undefined;
  clip: Rect | null;
  /** Border box in viewport CSS px, read on first use (see {@link entryRect}). */
  rect: Rect | null;
  style: StyleView;
  role: string | undefined;
  testId: string | undefined;
  ownText: string;
  /** The facts `role`, `testId`, `ownText` and `redacted` come from (memoized: same facts, same object). */
  facts: OwnFacts;
  visible: boolean;
  redacted: boolean;
  inShadow: boolean;
  /** Iteration order = document order. */
  order: number;
  /**
   * Highest change mark reaching this element (its own, its ancestors' subtree marks, marks on
   * its id); 0 when the walk had no marks. See {@link ChangeMarks}.
   */
  mark: number;
  /** Highest change mark reaching this element's css path (subtree marks of its ancestors and itself, id marks). */
  pathMark: number;
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
  /**
   * Change marks to attach to entries (for reusing cached records), and the memo of own facts
   * that they validate; `stamp` is the current projection's.
   */
  memo?: { marks: ChangeMarks; facts: OwnFactsMemo; stamp: number };
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

/** True for elements (by local name) the walk never enters or reports. */
export function isSkippedTag(tag: string): boolean {
  return SKIPPED.has(tag) || tag === OVERLAY_HOST_TAG;
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
    /** Highest subtree or id mark of the ancestors. */
    mark: number;
  }

  const marks = options.memo?.marks;
  const memo = options.memo;
  /** `base` raised by the subtree and id marks of `el`. */
  const reachOf = (el: Element, base: number, hasAttributes: boolean): number => {
    if (marks === undefined) return base;
    let reach = Math.max(base, marks.subtreeOf(el));
    if (hasAttributes && marks.hasIdMarks) {
      const id = el.getAttribute("id");
      if (id !== null) reach = Math.max(reach, marks.idMark(id));
    }
    return reach;
  };

  const visitChildren = (parent: ParentNode, frame: Frame): void => {
    for (let child = parent.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (overflow) return;
      visit(child, frame);
    }
  };

  const visit = (el: Element, frame: Frame): void => {
    const tag = el.localName;
    if (isSkippedTag(tag)) return;
    if (tag === BOUNDARY_WRAPPER_TAG) {
      // The wrapper is not reported, but it marks the boundary that owns its children.
      const owner = options.componentRoots.get(el);
      const mark = reachOf(el, frame.mark, el.hasAttributes());
      visitChildren(el, owner !== undefined ? { ...frame, componentId: owner, mark } : { ...frame, mark });
      return;
    }
    if (entries.length >= options.maxEntries) {
      overflow = true;
      return;
    }
    const style = platform.style(el);
    const display = style.getPropertyValue("display");
    // Nothing below a display:none element is rendered; a summary skips the whole subtree.
    if (display === "none" && mode === "summary") return;
    const componentId = options.componentRoots.get(el) ?? frame.componentId;
    const hasAttributes = el.hasAttributes();
    const reach = reachOf(el, frame.mark, hasAttributes);
    const mark = marks === undefined ? 0 : Math.max(reach, marks.selfOf(el));
    const facts = memo === undefined ? readOwnFacts(el, tag, rules) : memo.facts.factsOf(el, tag, rules, mark, memo.marks.resetAt, memo.stamp);
    const { redacted, role, testId, ownText, attributeInteresting } = facts;
    const shadow = el.shadowRoot;
    const includedAnyway =
      mode === "all" ||
      redacted ||
      shadow !== null ||
      testId !== undefined ||
      ownText !== "" ||
      (role !== undefined && !NON_SEMANTIC_ROLES.has(role)) ||
      ALWAYS_INTERESTING.has(tag) ||
      options.componentRoots.has(el) ||
      attributeInteresting;
    // Being a scroll container matters for inclusion and for the clip of descendants; an included
    // element without element children (or a shadow root) has neither question left to answer.
    const leaf = shadow === null && el.firstElementChild === null;
    const scrolls = display !== "none" && !(includedAnyway && leaf) && platform.isScrollContainer(el, style, display);
    const include = includedAnyway || scrolls;
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
        facts,
        visible,
        redacted,
        inShadow: frame.inShadow,
        order: index,
        mark,
        pathMark: reach,
        // Always present (possibly undefined) so every entry has the same shape: property reads
        // on entries stay monomorphic across the thousands of them one walk makes.
        componentId,
        scrollContainerId: frame.scrollContainerId,
        role,
        testId,
      };
      entries.push(entry);
    }
    // A leaf has nothing below it to visit (and no frame to build for it).
    if (leaf || redacted || display === "none" || tag === "iframe") return;
    let next: Frame = { parentIndex: index, componentId, scrollContainerId: frame.scrollContainerId, clip: frame.clip, inShadow: frame.inShadow, mark: reach };
    if (scrolls) {
      const r = platform.rect(el);
      const clip: Rect = { x: r.x + el.clientLeft, y: r.y + el.clientTop, width: el.clientWidth, height: el.clientHeight };
      next = { ...next, scrollContainerId: ids.idOf(el), clip: frame.clip === null ? clip : (intersect(frame.clip, clip) ?? { x: clip.x, y: clip.y, width: 0, height: 0 }) };
    }
    if (shadow !== null) {
      options.onShadowRoot?.(shadow);
      visitChildren(shadow, { ...next, inShadow: true, mark: marks === undefined ? reach : Math.max(reach, marks.subtreeOf(shadow)) });
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
      // A connected element's root is its document or a shadow root (nodeType 11, any realm).
      inShadow: root.nodeType === 11,
      mark: marks === undefined ? 0 : markAbove(start, marks),
    });
  }
  return { entries, overflow };
}
