//! The platform: every read of layout, style, viewport and hit-testing goes through this object,
//! so the Page Context logic can be tested with a fake layout (jsdom has none) and the real
//! browser implementation stays in one place.
import type { Rect } from "./protocol";

/** The subset of computed style the runtime reads. */
export interface StyleView {
  getPropertyValue(name: string): string;
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
  /** True when `el` (with computed `style`) scrolls its content: overflow auto/scroll and overflowing. */
  isScrollContainer(el: Element, style: StyleView): boolean;
  /** Whether the user prefers a dark scheme. */
  prefersDark(): boolean;
  /** Whether the user prefers reduced motion. */
  prefersReducedMotion(): boolean;
  /** Number of running animations in the document. */
  runningAnimations(): number;
  /** Monotonic milliseconds. */
  now(): number;
}

function toRect(r: { x: number; y: number; width: number; height: number }): Rect {
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

/** The real-DOM platform for a window. */
export function domPlatform(win: Window): Platform {
  const doc = win.document;
  return {
    rect: (el) => toRect(el.getBoundingClientRect()),
    clientRects: (el) => Array.from(el.getClientRects(), toRect),
    style: (el) => win.getComputedStyle(el),
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
    isScrollContainer: (el, style) => {
      // The style check is cheap; layout reads happen only for elements that can scroll.
      // One read of the shorthand ("visible", "hidden auto", …) instead of two longhands.
      const overflow = style.getPropertyValue("overflow");
      if (!overflow.includes("auto") && !overflow.includes("scroll")) return false;
      return el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth;
    },
    prefersDark: () => typeof win.matchMedia === "function" && win.matchMedia("(prefers-color-scheme: dark)").matches,
    prefersReducedMotion: () =>
      typeof win.matchMedia === "function" && win.matchMedia("(prefers-reduced-motion: reduce)").matches,
    runningAnimations: () =>
      typeof doc.getAnimations === "function" ? doc.getAnimations().filter((a) => a.playState === "running").length : 0,
    now: () => (typeof win.performance !== "undefined" ? win.performance.now() : Date.now()),
  };
}
