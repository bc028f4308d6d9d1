//! Change notifications of the repair queue. The queue reports each change it makes (a finding
//! queued, delivered or taken, a lifecycle event mirrored, an action queued, answered or taken,
//! state recovered from storage); listeners hear about them once per microtask, with every kind
//! that happened since the last call, so a burst of writes costs one re-read. A listener that
//! throws is reported as a dev warning and never stops the queue or the other listeners.
import { devWarn } from "../errors";
import type { RepairChange, RepairChangeKind } from "./types";

/** Fans coalesced queue changes out to listeners. */
export class RepairNotifier {
  readonly #listeners = new Set<(change: RepairChange) => void>();
  #pending = new Set<RepairChangeKind>();
  #scheduled = false;
  #sequence = 0;
  #stopped = false;

  /** Notes a change; listeners are called on the next microtask (once for a burst). */
  changed(kind: RepairChangeKind): void {
    if (this.#stopped) return;
    this.#pending.add(kind);
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#flush());
  }

  /** Adds a listener; returns the function that removes it (idempotent). */
  subscribe(listener: (change: RepairChange) => void): () => void {
    // A wrapper per call, so subscribing the same function twice gives two independent entries.
    const entry = (change: RepairChange) => listener(change);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  /** Drops every listener and every pending change (the bridge was disposed). */
  stop(): void {
    this.#stopped = true;
    this.#listeners.clear();
    this.#pending.clear();
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#stopped || this.#pending.size === 0) return;
    this.#sequence += 1;
    const change: RepairChange = { sequence: this.#sequence, kinds: [...this.#pending] };
    this.#pending = new Set();
    // A copy: a listener may unsubscribe itself or others while being called.
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (e) {
        devWarn(`a subscribeRepairs listener threw (${String(e)}); the repair queue is unaffected.`);
      }
    }
  }
}
