/**
 * Where saved drafts live, by `repairStorage`: `session` and `local` use the matching web storage
 * under one key per page, `memory` keeps them for the life of the page (so unmounting and
 * mounting the overlay again keeps them). Unreadable or unavailable storage degrades to memory.
 * The panel's placement (dock, collapsed) is the reviewer's choice for the whole origin, so it
 * lives in `localStorage` under one key, whatever the page's repair storage.
 */
import type { RepairStorageKind } from "../../repair/types";
import { sanitizeDrafts, type DraftStore } from "../state/drafts";
import type { Draft } from "../state/types";
import { sanitizePrefs, type PanelPrefs } from "../state/panel";

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

/** The storage key of the panel placement (one per origin: `localStorage` is per origin). */
export const PANEL_KEY = "a3s.test.review-panel/1";

let panelInMemory: PanelPrefs | null = null;

/** Where the panel placement is read and written; a bad stored value reads as the defaults. */
export function panelStore(win: Window): { load(): PanelPrefs; save(prefs: PanelPrefs): void } {
  let storage: Storage | null = null;
  try {
    storage = win.localStorage;
  } catch {
    storage = null;
  }
  return {
    load() {
      try {
        const raw = storage?.getItem(PANEL_KEY) ?? null;
        if (raw !== null) return sanitizePrefs(JSON.parse(raw));
      } catch {
        // Unparsable or blocked: the defaults (or this page's last choice) apply.
      }
      return sanitizePrefs(panelInMemory);
    },
    save(prefs) {
      panelInMemory = { ...prefs };
      try {
        storage?.setItem(PANEL_KEY, JSON.stringify({ dock: prefs.dock, collapsed: prefs.collapsed }));
      } catch {
        // Full or blocked storage: the choice lasts for this page.
      }
    },
  };
}
