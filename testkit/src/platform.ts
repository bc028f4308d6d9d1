//! The platform: every read of layout, style, viewport and hit-testing goes through this object,
//! so the Page Context logic can be tested with a fake layout (jsdom has none) and the real
//! browser implementation stays in one place.
import type { Rect } from "./protocol";

/** The subset of computed style the runtime reads. */
export interface StyleView {
  getPropertyValue(name: string): string;
}

/** One animation as the platform reports it (`document.getAnimations()`). */
export interface PlatformAnimation {
  target: Element | null;
  kind: "animation" | "transition" | "script";
  name: string;
  state: "running" | "paused";
}

/** Layout/style access used by snapshots and UI understanding. */
export interface Platform {
  /** Border box in layout-viewport CSS px. */
  rect(el: Element): Rect;
  /** Every client rect of `el`. */
  clientRects(el: Element): Rect[];
  /** Computed style of `el`. */
  style(el: Element): StyleView;
  /** Layout viewport size, scroll and document size in CSS px. */
  viewport(): {
    width: number;
    height: number;
    dpr: number;
    scrollX: number;
    scrollY: number;
    docWidth: number;
    docHeight: number;
    visual?: { x: number; y: number; width: number; height: number; scale: number };
  };
  /** Topmost element at a viewport point within `root` (document or shadow root). */
  hitTest(root: Document | ShadowRoot, x: number, y: number): Element | null;
  /**
   * True when `el` (with computed `style`) scrolls its content: overflow auto/scroll and
   * overflowing. `display`, when the caller has read it, saves reading it again.
   */
  isScrollContainer(el: Element, style: StyleView, display?: string): boolean;
  /** Whether the user prefers a dark scheme. */
  prefersDark(): boolean;
  /** Whether the user prefers reduced motion. */
  prefersReducedMotion(): boolean;
  /** Number of running animations in the document. */
  runningAnimations(): number;
  /** Every animation of the document that is running or paused, with the element it moves. */
  animations(): PlatformAnimation[];
  /**
   * Style sheets of the document whose rules the page may not read (cross-origin without CORS):
   * they are counted, never read around.
   */
  inaccessibleStyleSheets(): number;
  /** Monotonic milliseconds. */
  now(): number;
}

function toRect(r: { x: number; y: number; width: number; height: number }): Rect {
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

/** HTML elements that may be replaced (or widget) boxes even when their display is `inline`. */
const REPLACED = new Set(["img", "video", "audio", "canvas", "iframe", "embed", "object", "input", "select", "textarea", "button", "meter", "progress"]);
const XHTML = "http://www.w3.org/1999/xhtml";

/** True for a computed overflow value that scrolls (`auto`, `scroll`; `overlay` computes to auto). */
function scrolls(overflow: string): boolean {
  return overflow.includes("auto") || overflow.includes("scroll");
}

/** The real-DOM platform for a window. */
export function domPlatform(win: Window): Platform {
  const doc = win.document;
  // Computed style declarations are live, so one per element serves every later read.
  const styles = new WeakMap<Element, CSSStyleDeclaration>();
  // Media query lists are live too; parsing the query on every snapshot is not free.
  const queries = new Map<string, MediaQueryList>();
  const matches = (query: string): boolean => {
    if (typeof win.matchMedia !== "function") return false;
    let list = queries.get(query);
    if (list === undefined) {
      list = win.matchMedia(query);
      queries.set(query, list);
    }
    return list.matches;
  };
  return {
    rect: (el) => toRect(el.getBoundingClientRect()),
    clientRects: (el) => Array.from(el.getClientRects(), toRect),
    style: (el) => {
      let style = styles.get(el);
      if (style === undefined) {
        style = win.getComputedStyle(el);
        styles.set(el, style);
      }
      return style;
    },
    viewport: () => {
      const root = doc.documentElement;
      const vv = win.visualViewport;
      return {
        width: root.clientWidth || win.innerWidth,
        height: root.clientHeight || win.innerHeight,
        dpr: win.devicePixelRatio || 1,
        scrollX: win.scrollX,
        scrollY: win.scrollY,
        docWidth: Math.max(root.scrollWidth, doc.body?.scrollWidth ?? 0),
        docHeight: Math.max(root.scrollHeight, doc.body?.scrollHeight ?? 0),
        ...(vv
          ? { visual: { x: vv.offsetLeft, y: vv.offsetTop, width: vv.width, height: vv.height, scale: vv.scale } }
          : {}),
      };
    },
    hitTest: (root, x, y) => (typeof root.elementFromPoint === "function" ? root.elementFromPoint(x, y) : null),
    isScrollContainer: (el, style, display) => {
      // A non-replaced inline HTML box has no scrolling area (its client and scroll sizes are 0);
      // SVG and MathML elements are left to the general check.
      if (display === "inline" && el.namespaceURI === XHTML && !REPLACED.has(el.localName)) return false;
      // The style check is cheap; layout reads happen only for elements that can scroll.
      // A computed overflow-x of visible or clip means overflow-y is visible or clip too (either
      // axis being anything else turns visible into auto), so most elements need one longhand
      // read, which is cheaper than serializing the shorthand.
      const x = style.getPropertyValue("overflow-x");
      if (x === "visible" || x === "clip") return false;
      if (!scrolls(x) && !scrolls(style.getPropertyValue("overflow-y"))) return false;
      return el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth;
    },
    prefersDark: () => matches("(prefers-color-scheme: dark)"),
    prefersReducedMotion: () => matches("(prefers-reduced-motion: reduce)"),
    runningAnimations: () =>
      typeof doc.getAnimations === "function" ? doc.getAnimations().filter((a) => a.playState === "running").length : 0,
    animations: () => {
      if (typeof doc.getAnimations !== "function") return [];
      const out: PlatformAnimation[] = [];
      for (const a of doc.getAnimations()) {
        if (a.playState !== "running" && a.playState !== "paused") continue;
        const effect = a.effect as KeyframeEffect | null;
        const target = effect !== null && "target" in effect ? effect.target : null;
        const css = a as Animation & { animationName?: string; transitionProperty?: string };
        const kind = css.animationName !== undefined ? "animation" : css.transitionProperty !== undefined ? "transition" : "script";
        const name = css.animationName ?? css.transitionProperty ?? a.id;
        out.push({ target, kind, name, state: a.playState });
      }
      return out;
    },
    inaccessibleStyleSheets: () => {
      let n = 0;
      for (const sheet of Array.from(doc.styleSheets)) {
        try {
          void sheet.cssRules;
        } catch {
          n++;
        }
      }
      return n;
    },
    now: () => (typeof win.performance !== "undefined" ? win.performance.now() : Date.now()),
  };
}
