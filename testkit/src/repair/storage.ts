//! Persistence of the repair queue: memory, sessionStorage or localStorage under one key per page.
//! Only the queue's own key is read or written; no other storage is ever touched.
import { devWarn } from "../errors";
import type { RepairAction, RepairActionOutcome, RepairRecord, RepairStorageKind } from "./types";

/** What the queue persists. */
export interface RepairQueueState {
  version: 1;
  repairs: RepairRecord[];
  pending: string[];
  actions: RepairAction[];
  /** Final answers to actions that left the queue (for the overlay). */
  outcomes: RepairActionOutcome[];
}

/** Loads and saves the queue state. */
export interface RepairStore {
  /** Where the state actually lives: memory when the requested web storage was unavailable. */
  readonly kind?: RepairStorageKind;
  load(): RepairQueueState;
  save(state: RepairQueueState): void;
}

/** An empty state. */
export function emptyState(): RepairQueueState {
  return { version: 1, repairs: [], pending: [], actions: [], outcomes: [] };
}

/** The storage key of a page's queue. */
export function storageKeyOf(pageId: string): string {
  return `a3s.test.repair/1:${pageId}`;
}

function isState(v: unknown): v is RepairQueueState {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Record<string, unknown>;
  return s.version === 1 && Array.isArray(s.repairs) && Array.isArray(s.pending) && Array.isArray(s.actions);
}

/** Creates the store for `kind`. Unavailable web storage falls back to memory with a warning. */
export function createRepairStore(kind: RepairStorageKind, win: Window | undefined, pageId: string): RepairStore {
  let memory = emptyState();
  const memoryStore: RepairStore = { kind: "memory", load: () => memory, save: (s) => (memory = s) };
  if (kind === "memory" || win === undefined) return memoryStore;
  let storage: Storage;
  try {
    storage = kind === "session" ? win.sessionStorage : win.localStorage;
  } catch (e) {
    devWarn(`repairStorage "${kind}" is not available (${String(e)}); the repair queue stays in memory.`);
    return memoryStore;
  }
  const key = storageKeyOf(pageId);
  return {
    kind,
    load: () => {
      try {
        const raw = storage.getItem(key);
        if (raw === null) return memory;
        const parsed: unknown = JSON.parse(raw);
        // A queue saved before outcomes were kept reads with none.
        if (isState(parsed)) memory = { ...parsed, outcomes: Array.isArray(parsed.outcomes) ? parsed.outcomes : [] };
        else devWarn(`ignoring an unreadable repair queue under "${key}".`);
      } catch (e) {
        devWarn(`could not read the repair queue (${String(e)}); starting empty.`);
      }
      return memory;
    },
    save: (s) => {
      memory = s;
      try {
        storage.setItem(key, JSON.stringify(s));
      } catch (e) {
        devWarn(`could not persist the repair queue (${String(e)}); it is kept in memory.`);
      }
    },
  };
}
