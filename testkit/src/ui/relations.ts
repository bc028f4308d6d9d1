//! The relations between rendered boxes that UI understanding reports beyond the layout graph:
//! boxes drawn over one another (overlaps), boxes an ancestor's overflow cuts (clips), and the
//! animations moving them (motion). Every fact names only nodes already in the record, and the
//! pairwise overlap search stops at the record's time budget or its pair bound, saying so.
import type { Rect, UiAnimation, UiClip, UiOverlap } from "../protocol";
import type { Platform, StyleView } from "../platform";
import { intersect, round2, roundRect } from "../snapshot/geometry";

/** Inputs of {@link relationsOf}. */
export interface RelationsInput {
  /** The record's nodes: element → node id, in document order. */
  included: ReadonlyMap<Element, string>;
  /** Their border boxes (viewport CSS px), as the record reports them. */
  boxes: ReadonlyMap<Element, Rect>;
  platform: Platform;
  /** When the record started (platform ms) and how long it may take in all. */
  started: number;
  timeMs: number;
  /** Most overlaps, clips and animations reported (each list on its own). */
  maxPairs: number;
}

/** What {@link relationsOf} found, and why it stopped early if it did. */
export interface Relations {
  overlaps: UiOverlap[];
  clips: UiClip[];
  animations: UiAnimation[];
  cut?: "time_limit" | "overlap_limit";
}

/** Longest animation name kept (page-controlled text). */
const NAME_CHARS = 64;
/** Deepest ancestor chain searched for a clipping box. */
const CLIP_DEPTH = 64;

function area(r: Rect): number {
  return Math.max(0, r.width) * Math.max(0, r.height);
}

/** True when `el` cuts its content on at least one axis; the two axes it clips. */
function clipsAxes(style: StyleView): { x: boolean; y: boolean } {
  const x = style.getPropertyValue("overflow-x");
  const y = style.getPropertyValue("overflow-y");
  return { x: x !== "" && x !== "visible", y: y !== "" && y !== "visible" };
}

/** The padding box of `box` for an element with computed `style` (border widths removed). */
function paddingBox(box: Rect, style: StyleView): Rect {
  const w = (side: string) => {
    const v = parseFloat(style.getPropertyValue(`border-${side}-width`));
    return Number.isFinite(v) ? v : 0;
  };
  const left = w("left");
  const top = w("top");
  return { x: box.x + left, y: box.y + top, width: Math.max(0, box.width - left - w("right")), height: Math.max(0, box.height - top - w("bottom")) };
}

/** The nearest record ancestor whose overflow cuts `el`'s box, with the share left visible. */
function clipOf(el: Element, box: Rect, input: RelationsInput): UiClip | undefined {
  const id = input.included.get(el);
  if (id === undefined || area(box) === 0) return undefined;
  // A fixed box escapes every ancestor's overflow (the viewport is its containing block).
  if (input.platform.style(el).getPropertyValue("position") === "fixed") return undefined;
  let ancestor = el.parentElement;
  for (let depth = 0; ancestor !== null && depth < CLIP_DEPTH; depth++, ancestor = ancestor.parentElement) {
    const by = input.included.get(ancestor);
    const outer = input.boxes.get(ancestor);
    if (by === undefined || outer === undefined) continue;
    const style = input.platform.style(ancestor);
    const axes = clipsAxes(style);
    if (!axes.x && !axes.y) continue;
    const inner = paddingBox(outer, style);
    // An axis the ancestor does not clip lets the box through whole on that axis.
    const window: Rect = {
      x: axes.x ? inner.x : box.x,
      y: axes.y ? inner.y : box.y,
      width: axes.x ? inner.width : box.width,
      height: axes.y ? inner.height : box.height,
    };
    const seen = intersect(box, window);
    const ratio = seen === null ? 0 : area(seen) / area(box);
    if (ratio < 0.995) return { nodeId: id, by, visibleRatio: Math.round(ratio * 10000) / 10000 };
  }
  return undefined;
}

/** Which of `a` and `b` the browser finds on top at `x, y`, if either. */
function above(platform: Platform, a: Element, b: Element, x: number, y: number): Element | undefined {
  const hit = platform.hitTest(a.getRootNode() as Document | ShadowRoot, x, y);
  if (hit === null) return undefined;
  if (hit === a || a.contains(hit)) return a;
  if (hit === b || b.contains(hit)) return b;
  return undefined;
}

/** Overlaps, clips and animations of the record's nodes, within its budget. */
export function relationsOf(input: RelationsInput): Relations {
  const { platform } = input;
  const out: Relations = { overlaps: [], clips: [], animations: [] };
  const late = () => platform.now() - input.started > input.timeMs;
  const shown = Array.from(input.boxes).filter(([, box]) => area(box) > 0);
  for (const [el, box] of shown) {
    if (out.clips.length >= input.maxPairs) break;
    const clip = clipOf(el, box, input);
    if (clip !== undefined) out.clips.push(clip);
  }
  search: for (let i = 0; i < shown.length; i++) {
    if (late()) {
      out.cut = "time_limit";
      break;
    }
    const [a, boxA] = shown[i] as [Element, Rect];
    for (let j = i + 1; j < shown.length; j++) {
      const [b, boxB] = shown[j] as [Element, Rect];
      const shared = intersect(boxA, boxB);
      if (shared === null || area(shared) < 1 || a.contains(b) || b.contains(a)) continue;
      if (out.overlaps.length >= input.maxPairs) {
        out.cut = "overlap_limit";
        break search;
      }
      const overlap: UiOverlap = { a: input.included.get(a) as string, b: input.included.get(b) as string, area: roundRect(shared) };
      const top = above(platform, a, b, round2(shared.x + shared.width / 2), round2(shared.y + shared.height / 2));
      if (top !== undefined) overlap.above = input.included.get(top) as string;
      out.overlaps.push(overlap);
    }
  }
  for (const animation of platform.animations()) {
    if (out.animations.length >= input.maxPairs) break;
    const nodeId = animation.target !== null ? input.included.get(animation.target) : undefined;
    if (nodeId === undefined) continue;
    out.animations.push({ nodeId, kind: animation.kind, name: animation.name.slice(0, NAME_CHARS), state: animation.state });
  }
  return out;
}
