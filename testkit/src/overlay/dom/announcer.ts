/**
 * The overlay's one announcer: a polite and an assertive live region inside the shadow root.
 * Messages are added (never replaced in place, which some screen readers skip) and cleared after
 * a while so the regions stay short.
 */
import { h } from "./el";

/** How long an announcement stays in its region. */
const CLEAR_AFTER_MS = 7_000;

/** Announces short messages to assistive technology. */
export interface Announcer {
  /** The element to append to the shadow root. */
  element: HTMLElement;
  /** Adds a message (`assertive` for errors). */
  say(message: string, priority?: "polite" | "assertive"): void;
  /** Clears pending timers. */
  destroy(): void;
}

/** Creates the announcer. */
export function createAnnouncer(doc: Document): Announcer {
  const polite = h(doc, "div", { "aria-live": "polite", "aria-atomic": "false", role: "status", "data-part": "announce-polite" });
  const assertive = h(doc, "div", { "aria-live": "assertive", "aria-atomic": "false", role: "alert", "data-part": "announce-assertive" });
  const element = h(doc, "div", { class: "sr-only", "data-part": "announcer" }, polite, assertive);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  return {
    element,
    say(message, priority = "polite") {
      const line = h(doc, "p", {}, message);
      (priority === "assertive" ? assertive : polite).append(line);
      const timer = setTimeout(() => {
        timers.delete(timer);
        line.remove();
      }, CLEAR_AFTER_MS);
      timers.add(timer);
    },
    destroy() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
