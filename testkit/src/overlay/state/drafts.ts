/**
 * The reviewer's saved drafts in visible workspace order, persisted through an injected store so
 * `repairStorage` decides whether they survive a reload. Saving here never queues anything: only
 * `send` hands drafts to the page queue.
 */
import type { Draft } from "./types";

/** Loads and saves the draft list. */
export interface DraftStore {
  load(): Draft[];
  save(drafts: readonly Draft[]): void;
}

function isDraft(v: unknown): v is Draft {
  if (typeof v !== "object" || v === null) return false;
  const d = v as Record<string, unknown>;
  return typeof d.id === "string" && typeof d.createdAt === "string" && typeof d.instruction === "string" && typeof d.target === "object" && d.target !== null && Array.isArray(d.criteria);
}

/** Keeps only well-formed drafts from whatever a store returned. */
export function sanitizeDrafts(v: unknown): Draft[] {
  return Array.isArray(v) ? v.filter(isDraft) : [];
}

/** The ordered list of saved drafts. */
export class DraftBook {
  private drafts: Draft[];

  constructor(private readonly store: DraftStore) {
    this.drafts = sanitizeDrafts(store.load());
  }

  /** The drafts in visible order. */
  list(): readonly Draft[] {
    return this.drafts;
  }

  /** The draft with `id`, if saved. */
  get(id: string): Draft | undefined {
    return this.drafts.find((d) => d.id === id);
  }

  /** Saves a new draft at the end, or replaces the saved one with the same id in place. */
  save(draft: Draft): void {
    const index = this.drafts.findIndex((d) => d.id === draft.id);
    if (index >= 0) this.drafts = this.drafts.map((d, i) => (i === index ? draft : d));
    else this.drafts = [...this.drafts, draft];
    this.store.save(this.drafts);
  }

  /** Removes drafts (after they were sent, or deleted by the reviewer). */
  remove(ids: readonly string[]): void {
    const gone = new Set(ids);
    this.drafts = this.drafts.filter((d) => !gone.has(d.id));
    // A relation to a draft that no longer exists here may still point at a sent finding: kept.
    this.store.save(this.drafts);
  }

  /** Moves a draft one place up (-1) or down (+1) in the visible order. */
  move(id: string, by: -1 | 1): void {
    const from = this.drafts.findIndex((d) => d.id === id);
    const to = from + by;
    if (from < 0 || to < 0 || to >= this.drafts.length) return;
    const next = [...this.drafts];
    const [moved] = next.splice(from, 1);
    if (moved === undefined) return;
    next.splice(to, 0, moved);
    this.drafts = next;
    this.store.save(this.drafts);
  }

  /** Records why sending a draft failed (shown beside it). */
  markFailed(id: string, message: string): void {
    this.drafts = this.drafts.map((d) => (d.id === id ? { ...d, sendError: message } : d));
    this.store.save(this.drafts);
  }
}
