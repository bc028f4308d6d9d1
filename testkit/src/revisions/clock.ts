//! The revision clock: starts at 1, advances by one per batch of change signals, wakes waiters
//! and notifies subscribers. Batches are closed on a microtask so one interaction is one
//! revision; nothing is polled.
import type { RevisionChange, SignalKind } from "../protocol";

/** Schedules a callback soon (a microtask by default). */
export type Scheduler = (fn: () => void) => void;

interface Waiter {
  after: number;
  resolve: (change: RevisionChange) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Counts revisions and delivers changes. */
export class RevisionClock {
  #current = 1;
  #pending = new Set<SignalKind>();
  #scheduled = false;
  readonly #waiters = new Set<Waiter>();
  readonly #listeners = new Set<(change: RevisionChange) => void>();
  readonly #reasonsByRevision = new Map<number, SignalKind[]>();

  readonly #schedule: Scheduler;
  readonly #beforeFlush: () => void;

  /**
   * @param schedule closes a batch later (default: queueMicrotask)
   * @param beforeFlush pulls signals that are queued but not yet delivered (e.g. mutation
   *   records) into the batch being closed
   */
  constructor(schedule: Scheduler = (fn) => queueMicrotask(fn), beforeFlush: () => void = () => {}) {
    this.#schedule = schedule;
    this.#beforeFlush = beforeFlush;
  }

  /** The current revision. */
  get revision(): number {
    return this.#current;
  }

  /** Records a change signal; the batch closes on the scheduler. */
  signal(kind: SignalKind): void {
    this.#pending.add(kind);
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#schedule(() => this.flush());
    }
  }

  /** Closes the open batch now (if any). Returns the revision after the flush. */
  flush(): number {
    this.#beforeFlush();
    this.#scheduled = false;
    if (this.#pending.size === 0) return this.#current;
    const reasons = Array.from(this.#pending).sort();
    this.#pending = new Set();
    this.#current += 1;
    this.#reasonsByRevision.set(this.#current, reasons);
    if (this.#reasonsByRevision.size > 64) {
      const oldest = this.#reasonsByRevision.keys().next().value;
      if (oldest !== undefined) this.#reasonsByRevision.delete(oldest);
    }
    const change: RevisionChange = { revision: this.#current, changed: true, reasons };
    for (const w of Array.from(this.#waiters)) {
      if (this.#current > w.after) this.#settle(w, change);
    }
    for (const l of Array.from(this.#listeners)) {
      try {
        l(change);
      } catch {
        // A listener's failure must not stop revisions or other listeners.
      }
    }
    return this.#current;
  }

  /** Resolves when the revision passes `after`, or with `changed: false` after `timeoutMs`. */
  waitForChange(after: number, timeoutMs: number): Promise<RevisionChange> {
    this.flush();
    if (this.#current > after) {
      return Promise.resolve({ revision: this.#current, changed: true, reasons: this.#reasonsSince(after) });
    }
    return new Promise((resolve) => {
      const w: Waiter = { after, resolve, timer: undefined };
      w.timer = setTimeout(() => this.#settle(w, { revision: this.#current, changed: false, reasons: [] }), timeoutMs);
      this.#waiters.add(w);
    });
  }

  #reasonsSince(after: number): SignalKind[] {
    const out = new Set<SignalKind>();
    for (let r = after + 1; r <= this.#current; r++) for (const k of this.#reasonsByRevision.get(r) ?? []) out.add(k);
    return Array.from(out).sort();
  }

  #settle(w: Waiter, change: RevisionChange): void {
    if (!this.#waiters.delete(w)) return;
    if (w.timer !== undefined) clearTimeout(w.timer);
    w.resolve(change);
  }

  /** Adds a listener for every new revision; returns the unsubscribe function. */
  subscribe(listener: (change: RevisionChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Releases every waiter (as unchanged) and listener. */
  dispose(): void {
    for (const w of Array.from(this.#waiters)) this.#settle(w, { revision: this.#current, changed: false, reasons: [] });
    this.#listeners.clear();
    this.#pending.clear();
  }
}
