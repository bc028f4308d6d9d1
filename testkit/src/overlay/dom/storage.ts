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
