/**
 * Pausing page motion through the Web Animations API: CSS animations, transitions and script
 * animations of the document are paused and later resumed. Nothing is written onto host
 * nodes, and the choice is never persisted (a reload starts with motion running).
 */

/** Pauses and resumes the page's running animations. */
export interface MotionControl {
  pause(): number;
  resume(): number;
  destroy(): void;
}

/** Creates the control for `doc`. */
export function createMotionControl(doc: Document, isOwn: (a: Animation) => boolean): MotionControl {
  let paused: Animation[] = [];
  const all = (): Animation[] => (typeof doc.getAnimations === "function" ? doc.getAnimations() : []);
  return {
    pause() {
      paused = all().filter((a) => a.playState === "running" && !isOwn(a));
      for (const a of paused) a.pause();
      return paused.length;
    },
    resume() {
      const n = paused.length;
      for (const a of paused) if (a.playState === "paused") a.play();
      paused = [];
      return n;
    },
    destroy() {
      this.resume();
    },
  };
}
