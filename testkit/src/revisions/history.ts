//! Diff history: the hashes of recent projections, 8 projection keys × 12 revisions each, least
//! recently used keys evicted first. A baseline that fell out is a `reset_required`.
import type { ProjectionHashes } from "../snapshot/projection";

/** Projection keys kept. */
export const HISTORY_KEYS = 8;
/** Revisions kept per key. */
export const HISTORY_REVISIONS = 12;

/** Bounded store of projection hashes. */
export class ProjectionHistory {
  readonly #byKey = new Map<string, ProjectionHashes[]>();

  /** Stores `hashes` for `key`, replacing an entry of the same revision. */
  record(key: string, hashes: ProjectionHashes): void {
    const list = this.#byKey.get(key) ?? [];
    this.#byKey.delete(key);
    const kept = list.filter((h) => h.revision !== hashes.revision);
    kept.push(hashes);
    kept.sort((a, b) => a.revision - b.revision);
    while (kept.length > HISTORY_REVISIONS) kept.shift();
    this.#byKey.set(key, kept);
    while (this.#byKey.size > HISTORY_KEYS) {
      const oldest = this.#byKey.keys().next().value;
      if (oldest === undefined) break;
      this.#byKey.delete(oldest);
    }
  }

  /** The stored hashes of `key` at `revision`, if still kept. */
  get(key: string, revision: number): ProjectionHashes | undefined {
    const list = this.#byKey.get(key);
    if (list === undefined) return undefined;
    // Touch the key so recently used projections survive.
    this.#byKey.delete(key);
    this.#byKey.set(key, list);
    return list.find((h) => h.revision === revision);
  }

  /** Number of keys and total revisions held (for tests and diagnostics). */
  size(): { keys: number; revisions: number } {
    let revisions = 0;
    for (const list of this.#byKey.values()) revisions += list.length;
    return { keys: this.#byKey.size, revisions };
  }
}
