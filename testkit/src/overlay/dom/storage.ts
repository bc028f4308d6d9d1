/**
 * Where saved drafts live, by `repairStorage`: `session` and `local` use the matching web storage
 * under one key per page, `memory` keeps them for the life of the page (so unmounting and
 * mounting the overlay again keeps them). Unreadable or unavailable storage degrades to memory.
 */
import type { RepairStorageKind } from "../../repair/types";
import { sanitizeDrafts, type DraftStore } from "../state/drafts";
import type { Draft } from "../state/types";

/** The storage key of a page's drafts. */
export function draftKeyOf(pageId: string): string {
  return `a3s.test.review-drafts/1:${pageId}`;
}

const memory = new Map<string, Draft[]>();

/** The draft store of `pageId` for `kind`. */
export function draftStore(kind: RepairStorageKind, win: Window, pageId: string): DraftStore {
  const key = draftKeyOf(pageId);
  const inMemory: DraftStore = { load: () => memory.get(key) ?? [], save: (d) => void memory.set(key, [...d]) };
  if (kind === "memory") return inMemory;
  let storage: Storage;
  try {
    storage = kind === "session" ? win.sessionStorage : win.localStorage;
  } catch {
    return inMemory;
  }
  return {
    load() {
      try {
        const raw = storage.getItem(key);
        return raw === null ? inMemory.load() : sanitizeDrafts(JSON.parse(raw));
      } catch {
        return inMemory.load();
      }
    },
    save(drafts) {
      inMemory.save(drafts);
      try {
        storage.setItem(key, JSON.stringify(drafts));
      } catch {
        // Full or blocked storage: the drafts stay in memory for this page.
      }
    },
  };
}

/**
 * The storage kind the page's runtime was installed with, read from where its queue persists;
 * memory when neither web storage holds the page's queue. The bridge does not report its
 * `repairStorage`, so the queue is first asked to persist its unchanged state: taking an empty
 * id list removes nothing and writes the queue to its own storage key.
 */
export function detectStorageKind(win: Window, pageId: string, persistQueue: () => void): RepairStorageKind {
  const queueKey = `a3s.test.repair/1:${pageId}`;
  try {
    persistQueue();
  } catch {
    // An older runtime without id-filtered takes: only an existing queue can tell.
  }
  try {
    if (win.sessionStorage.getItem(queueKey) !== null) return "session";
    if (win.localStorage.getItem(queueKey) !== null) return "local";
  } catch {
    // Storage is blocked: memory.
  }
  return "memory";
}
