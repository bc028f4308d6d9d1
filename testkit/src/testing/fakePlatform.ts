//! Test-only platform: jsdom has no layout, so rects, viewport and hit-testing come from a table
//! the test controls. Not exported by the package.
import type { Platform, PlatformAnimation } from "../platform";
import type { Rect } from "../protocol";

/** Mutable fake layout state. */
export interface FakeLayout {
  rects: Map<Element, Rect>;
  viewport: { width: number; height: number; dpr: number; scrollX: number; scrollY: number; docWidth: number; docHeight: number };
  hit: ((x: number, y: number) => Element | null) | null;
  now: number;
  /** What `inaccessibleStyleSheets()` answers (jsdom loads no cross-origin sheet). */
  inaccessibleStyleSheets: number;
  /** What `animations()` answers (jsdom runs none). */
  animations: PlatformAnimation[];
}

/** A platform over jsdom with a controllable layout; unknown elements are 100×20 at (0,0). */
export function fakePlatform(win: Window): { platform: Platform; layout: FakeLayout } {
  const layout: FakeLayout = {
    rects: new Map(),
    viewport: { width: 1000, height: 800, dpr: 2, scrollX: 0, scrollY: 0, docWidth: 1000, docHeight: 2000 },
    hit: null,
    now: 0,
    inaccessibleStyleSheets: 0,
    animations: [],
  };
  const rectOf = (el: Element): Rect => {
    const known = layout.rects.get(el);
    if (known !== undefined) return known;
    return win.getComputedStyle(el).display === "none" ? { x: 0, y: 0, width: 0, height: 0 } : { x: 0, y: 0, width: 100, height: 20 };
  };
  const platform: Platform = {
    rect: rectOf,
    clientRects: (el) => {
      const r = rectOf(el);
      return r.width === 0 && r.height === 0 ? [] : [r];
    },
    style: (el) => win.getComputedStyle(el),
    viewport: () => ({ ...layout.viewport }),
    hitTest: (_root, x, y) => (layout.hit === null ? null : layout.hit(x, y)),
    isScrollContainer: (_el, s) => {
      const v = (name: string) => s.getPropertyValue(name);
      return ["auto", "scroll"].includes(v("overflow-y")) || ["auto", "scroll"].includes(v("overflow")) || ["auto", "scroll"].includes(v("overflow-x"));
    },
    prefersDark: () => false,
    prefersReducedMotion: () => false,
    runningAnimations: () => layout.animations.filter((a) => a.state === "running").length,
    animations: () => [...layout.animations],
    inaccessibleStyleSheets: () => layout.inaccessibleStyleSheets,
    now: () => layout.now,
  };
  return { platform, layout };
}
