import { afterEach, describe, expect, it, vi } from "vitest";
import { installTestKit } from "./install";
import { scheduleWarmUp, WARM_UP_MAX_ELEMENTS } from "./warmUp";
import { fakePlatform } from "../testing/fakePlatform";

/** A window whose idle callbacks run when the test says so. */
function idleWindow(): { win: Window; runIdle: () => void; cancelled: number[] } {
  const queue = new Map<number, () => void>();
  const cancelled: number[] = [];
  let next = 1;
  const win = Object.create(window) as Window;
  Object.defineProperty(win, "document", { value: window.document });
  Object.assign(win, {
    requestIdleCallback: (cb: () => void) => {
      queue.set(next, cb);
      return next++;
    },
    cancelIdleCallback: (h: number) => {
      cancelled.push(h);
      queue.delete(h);
    },
  });
  const runIdle = () => {
    const callbacks = Array.from(queue.values());
    queue.clear();
    for (const cb of callbacks) cb();
  };
  return { win, runIdle, cancelled };
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("warm-up", () => {
  it("does nothing where the window has no idle callbacks (jsdom, old browsers)", () => {
    const warmUp = vi.fn();
    const cancel = scheduleWarmUp(window, warmUp);
    cancel();
    expect(warmUp).not.toHaveBeenCalled();
  });

  it("runs once in the first idle period and swallows its own failure", () => {
    const { win, runIdle, cancelled } = idleWindow();
    const warmUp = vi.fn(() => {
      throw new Error("boom");
    });
    const cancel = scheduleWarmUp(win, warmUp);
    runIdle();
    runIdle();
    expect(warmUp).toHaveBeenCalledTimes(1);
    cancel();
    expect(cancelled).toEqual([]);
  });

  it("is cancelled when the bridge goes before the page is idle", () => {
    const { win, runIdle, cancelled } = idleWindow();
    const warmUp = vi.fn();
    scheduleWarmUp(win, warmUp)();
    runIdle();
    expect(warmUp).not.toHaveBeenCalled();
    expect(cancelled).toEqual([1]);
  });

  it("skips pages too large for one idle period", () => {
    document.body.innerHTML = "<i></i>".repeat(WARM_UP_MAX_ELEMENTS);
    const { win, runIdle } = idleWindow();
    const warmUp = vi.fn();
    scheduleWarmUp(win, warmUp);
    runIdle();
    expect(warmUp).not.toHaveBeenCalled();
  });

  it("leaves no trace a caller can see: no revision, no notification, no diff baseline", async () => {
    document.body.innerHTML = `<main><h1>Orders</h1><button data-testid="save">Save</button></main>`;
    const { win, runIdle } = idleWindow();
    const { platform } = fakePlatform(window);
    const read = vi.spyOn(platform, "style");
    const bridge = installTestKit({ enabled: true, page: { id: "warm" }, window: win, platform });
    if (bridge === null) throw new Error("not installed");
    try {
      const seen = vi.fn();
      bridge.subscribe(seen);
      const before = bridge.probe().revision;
      expect(read).not.toHaveBeenCalled();
      runIdle();
      // It did read the page …
      expect(read).toHaveBeenCalled();
      // … and changed nothing a caller sees.
      expect(bridge.probe().revision).toBe(before);
      expect(seen).not.toHaveBeenCalled();
      // The warm-up read the page at `before` but recorded nothing: a diff against it has no
      // baseline (only snapshots a caller asked for are baselines).
      document.querySelector("h1")?.append(" (2)");
      const after = await bridge.waitForChange(before, 1000);
      expect(after.changed).toBe(true);
      const diff = bridge.snapshot({ detail: "diff", sinceRevision: before });
      expect(diff.delta?.status).toBe("reset_required");
      // With a caller's snapshot as baseline the same diff is complete.
      const base = bridge.snapshot({});
      document.querySelector("h1")?.append(" (3)");
      await bridge.waitForChange(base.revision, 1000);
      expect(bridge.snapshot({ detail: "diff", sinceRevision: base.revision }).delta?.status).toBe("complete");
    } finally {
      bridge.dispose();
    }
  });
});
