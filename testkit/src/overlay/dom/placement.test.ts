/**
 * Popover placement: examples of each side and the fallback, and a seeded property run over
 * random marks, popover sizes and viewports — a placed popover is always inside the viewport,
 * never overlaps the mark, and `null` comes only when no side has room.
 */
import { describe, expect, it } from "vitest";
import { overlaps, placePopover, POPOVER_MARGIN, POPOVER_MIN_HEIGHT, POPOVER_MIN_VIEWPORT, unionOf } from "./placement";

const viewport = { width: 1200, height: 800 };
const size = { width: 360, height: 520 };

/** mulberry32: a small deterministic generator, so a failing case can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("placePopover", () => {
  it("opens right of the mark, flips left, then below and above", () => {
    expect(placePopover({ x: 100, y: 100, width: 200, height: 40 }, size, viewport)).toMatchObject({ side: "right", x: 308, y: 100, height: 520 });
    expect(placePopover({ x: 800, y: 100, width: 300, height: 40 }, size, viewport)).toMatchObject({ side: "left", x: 432 });
    // Too wide for either side: below when there is room, above when not.
    expect(placePopover({ x: 300, y: 60, width: 700, height: 40 }, size, viewport)).toMatchObject({ side: "below", y: 108 });
    expect(placePopover({ x: 300, y: 600, width: 700, height: 40 }, size, viewport)).toMatchObject({ side: "above" });
  });

  it("clamps a side popover inside the viewport along a mark near the bottom", () => {
    const p = placePopover({ x: 100, y: 700, width: 100, height: 60 }, size, viewport);
    expect(p).toMatchObject({ side: "right", y: viewport.height - POPOVER_MARGIN - 520 });
  });

  it("shortens a tall popover to the viewport, scrolling inside", () => {
    const p = placePopover({ x: 100, y: 100, width: 100, height: 40 }, { width: 360, height: 2000 }, viewport);
    expect(p?.height).toBe(viewport.height - 2 * POPOVER_MARGIN);
  });

  it("gives up (the docked panel takes the editor) on narrow viewports and marks as large as the screen", () => {
    expect(placePopover({ x: 10, y: 10, width: 50, height: 20 }, size, { width: POPOVER_MIN_VIEWPORT - 1, height: 900 })).toBeNull();
    expect(placePopover({ x: 0, y: 0, width: 1200, height: 800 }, size, viewport)).toBeNull();
    expect(placePopover({ x: 10, y: 10, width: 50, height: 20 }, size, { width: 1200, height: POPOVER_MIN_HEIGHT - 1 })).toBeNull();
  });

  it("leaves the panel uncovered when the free part of the viewport beside it has room", () => {
    // The collapsed toolbar at the bottom right: the popover stays above it, full height.
    const strip = { x: 763, y: 748, width: 420, height: 36 };
    const total = { x: 843, y: 286, width: 56, height: 22 };
    const p = placePopover(total, size, viewport, strip);
    expect(p).toMatchObject({ side: "left", height: 520 });
    expect(overlaps(p ?? total, strip)).toBe(false);
    // The expanded panel on the right: the popover opens in the part left of it.
    const panel = { x: 764, y: 16, width: 420, height: 768 };
    const q = placePopover({ x: 820, y: 100, width: 60, height: 30 }, size, viewport, panel);
    expect(q?.side).toBe("left");
    expect(overlaps(q ?? total, panel)).toBe(false);
    // No room beside it: the whole viewport is used rather than the panel taking the editor.
    expect(placePopover({ x: 100, y: 100, width: 50, height: 30 }, size, viewport, { x: 0, y: 0, width: 1200, height: 790 })).not.toBeNull();
  });

  it("is inside the viewport and off the mark for any mark, size and viewport (seeded property run)", () => {
    for (let seed = 1; seed <= 4000; seed += 1) {
      const r = random(seed);
      const vp = { width: Math.round(320 + r() * 1800), height: Math.round(200 + r() * 1200) };
      const mark = { x: (r() - 0.2) * vp.width, y: (r() - 0.2) * vp.height, width: r() * vp.width * (r() < 0.2 ? 1.5 : 0.5), height: r() * vp.height * (r() < 0.2 ? 1.5 : 0.4) };
      const s = { width: 200 + r() * 300, height: 100 + r() * 900 };
      const avoid = r() < 0.5 ? { x: r() * vp.width, y: r() * vp.height, width: r() * vp.width, height: r() * vp.height } : undefined;
      const p = placePopover(mark, s, vp, avoid);
      if (p === null) {
        // Nothing had room: the mark leaves no side with a popover's width or the minimum height.
        const m = POPOVER_MARGIN;
        const need = Math.min(s.height, POPOVER_MIN_HEIGHT);
        const sideFits = vp.height - 2 * m >= need && (mark.x + mark.width + 2 * m + s.width <= vp.width || mark.x - 2 * m - s.width >= 0);
        const stackFits = vp.height - 2 * m >= need && (vp.height - m - Math.max(m, mark.y + mark.height + m) >= need || Math.min(vp.height - m, mark.y - m) - m >= need);
        if (vp.width >= POPOVER_MIN_VIEWPORT && s.width + 2 * m <= vp.width) expect({ seed, sideFits, stackFits }).toEqual({ seed, sideFits: false, stackFits: false });
        continue;
      }
      expect({ seed, inside: p.x >= 0 && p.y >= 0 && p.x + p.width <= vp.width + 1e-9 && p.y + p.height <= vp.height + 1e-9 }).toEqual({ seed, inside: true });
      expect({ seed, covers: overlaps(p, mark) }).toEqual({ seed, covers: false });
      expect(p.width).toBe(s.width);
      expect(p.height).toBeLessThanOrEqual(s.height);
    }
  });

  it("unions the boxes of a multi-part mark", () => {
    expect(unionOf([])).toBeNull();
    expect(unionOf([{ x: 10, y: 20, width: 5, height: 5 }, { x: 0, y: 40, width: 30, height: 10 }])).toEqual({ x: 0, y: 20, width: 30, height: 30 });
  });
});
