//! The small checks every part of a finding shares (one copy of each, so the root entry stays
//! within its size budget): the error they raise, objects, known fields, closed word lists,
//! finding ids and rectangles.
import { TestKitError } from "../errors";

/** Finding ids: the rule the ledger applies (1–64 of `A-Z a-z 0-9 _ -`, no leading `-`). */
export const FINDING_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

/** Throws `invalid_repair` with `message`. */
export function fail(message: string): never {
  throw new TestKitError("invalid_repair", message);
}

/** True for a plain object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Fails when `o` has a field outside `keys`, naming the first one. */
export function onlyKeys(o: object, keys: readonly string[], where: string): void {
  const extra = Object.keys(o).find((k) => !keys.includes(k));
  if (extra !== undefined) fail(`${where} has unknown field "${extra}"`);
}

/**
 * The length of `s` in characters (Unicode code points), the unit the ledger and the JSON
 * Schema's `maxLength` count in. `s.length` counts UTF-16 units, so an emoji would count twice
 * and a text the ledger accepts could be refused here.
 */
export function charCount(s: string): number {
  // The string iterator yields code points (a lone surrogate as one), without an array.
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Which words a human action is missing, if any: a reply says something, and dismissing a
 * verified repair (`review_ready`) says why, as the ledger requires. The queue refuses such an
 * action; the overlay asks for the words first, in the reviewer's language.
 */
export function missingWords(kind: string, status: string | undefined, message: string | undefined): "reply" | "reason" | undefined {
  if (message !== undefined && message.trim() !== "") return undefined;
  if (kind === "reply") return "reply";
  if (kind === "dismiss" && status === "review_ready") return "reason";
  return undefined;
}

/** Fails unless `v` is one of `words`; the message lists them. */
export function oneOf<T extends string>(v: unknown, words: readonly T[], where: string): T {
  if (!words.includes(v as T)) fail(`${where} must be one of ${words.join(", ")}`);
  return v as T;
}

/** Fails unless `v` is a finding id (also the rule for action request ids). */
export function checkFindingId(v: unknown, where: string): string {
  if (typeof v !== "string" || !FINDING_ID_PATTERN.test(v)) fail(`${where} must be 1-64 characters of A-Z a-z 0-9 _ - (not starting with -)`);
  return v;
}

/** True when `v` has finite numeric `x`, `y`, `width` and `height`. */
export function isRect(v: unknown): v is { x: number; y: number; width: number; height: number } {
  return typeof v === "object" && v !== null && ["x", "y", "width", "height"].every((k) => Number.isFinite((v as Record<string, unknown>)[k]));
}
