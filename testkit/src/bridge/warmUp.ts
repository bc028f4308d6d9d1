// Warm-up: one unrecorded snapshot when the page first goes idle. The first observation an agent
// makes after a navigation otherwise pays for compiling the runtime, for every computed style
// and for every node record at once (several times a later snapshot's cost); idle time pays
// instead. It records no diff history, answers nobody and is skipped on large pages, where one
// projection would be a long task of its own.

/** Largest page (elements) warmed up; above it the first snapshot warms up by itself. */
export const WARM_UP_MAX_ELEMENTS = 3000;

/** Name of the user-timing measure a warm-up leaves. */
export const WARM_UP_MEASURE = "a3s-testkit:warm-up";

interface IdleWindow {
  requestIdleCallback?: (callback: () => void) => number;
  cancelIdleCallback?: (handle: number) => void;
}

/**
 * Runs `warmUp` once in the window's first idle period (never when the window has no idle
 * callbacks, e.g. jsdom). Returns the cancel function, for dispose.
 */
export function scheduleWarmUp(win: Window, warmUp: () => void): () => void {
  const idle = win as unknown as IdleWindow;
  const request = idle.requestIdleCallback;
  const cancel = idle.cancelIdleCallback;
  if (typeof request !== "function" || typeof cancel !== "function") return () => {};
  let pending = true;
  const handle = request.call(win, () => {
    pending = false;
    if (win.document.getElementsByTagName("*").length > WARM_UP_MAX_ELEMENTS) return;
    const perf = win.performance;
    const start = perf.now();
    try {
      warmUp();
    } catch {
      // A warm-up has no caller to tell; the next real snapshot reports the same error.
    }
    try {
      // Visible in the browser's performance panel, and to tests that wait for the warm-up.
      perf.measure(WARM_UP_MEASURE, { start });
    } catch {
      // User timing is optional.
    }
  });
  return () => {
    if (pending) cancel.call(win, handle);
    pending = false;
  };
}
