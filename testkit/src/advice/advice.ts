/**
 * Design advice on the page (`a3s.test.design-advice/1`): what `a3s-test agent audit` hands the
 * page after a design review provider answered, for the Review Overlay's "Advice" list.
 *
 * Advice is a provider's opinion about ONE revision of the page. This module re-reads it as
 * untrusted input (closed shapes, bounded counts and texts; an item holding an outcome, verdict,
 * expected value or action is refused), keeps it only while the page stays at that revision, and
 * maps its priority onto the finding severities with `high` at most `important`, never
 * `blocking`. Nothing here queues, sends or records anything: advice becomes work only when a
 * reviewer turns it into a draft, writes the instruction and sends it.
 */
import { TestKitError } from "../errors";
import type { Rect } from "../protocol";
import type { RepairSeverity } from "../repair/types";

/** The protocol string `showAdvice` accepts. */
export const ADVICE_PROTOCOL = "a3s.test.design-advice/1";
/** Most advice items kept. */
export const MAX_ADVICE_ITEMS = 200;
/** Longest title, in characters. */
export const MAX_ADVICE_TITLE = 200;
/** Longest rationale or recommendation, in characters. */
export const MAX_ADVICE_TEXT = 2000;

/** The dimensions a design review reports on. */
export const ADVICE_DIMENSIONS = [
  "hierarchy",
  "composition",
  "spacing",
  "typography",
  "colour",
  "consistency",
  "interaction_clarity",
  "content_clarity",
  "responsive_composition",
] as const;
/** One dimension. */
export type AdviceDimension = (typeof ADVICE_DIMENSIONS)[number];
/** How much the provider thinks an item matters. */
export type AdvicePriority = "low" | "medium" | "high";

/** What an item points at. */
export type AdviceTarget = { kind: "page" } | { kind: "node"; nodeId: string } | ({ kind: "region" } & Rect);

/** One piece of advice. */
export interface AdviceItem {
  id: string;
  dimension: AdviceDimension;
  priority: AdvicePriority;
  target: AdviceTarget;
  title: string;
  rationale: string;
  recommendation: string;
}

/** A review's advice for one revision. */
export interface PageAdvice {
  protocol: typeof ADVICE_PROTOCOL;
  revision: number;
  provider: string;
  model: string;
  items: AdviceItem[];
}

/** The severity a draft made from advice starts with: `high` is at most `important`. */
export function severityOf(priority: AdvicePriority): RepairSeverity {
  return priority === "high" ? "important" : "suggestion";
}

const ITEM_KEYS = new Set(["id", "dimension", "priority", "target", "title", "rationale", "recommendation"]);
const ADVICE_KEYS = new Set(["protocol", "revision", "provider", "model", "items"]);

function invalid(message: string): TestKitError {
  return new TestKitError("invalid_request", `advice: ${message}`);
}

function record(v: unknown, what: string, keys: ReadonlySet<string>): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalid(`${what} must be an object`);
  for (const k of Object.keys(v)) if (!keys.has(k)) throw invalid(`${what} has an unknown field "${k.slice(0, 40)}" (advice carries no outcome, verdict, expected value or action)`);
  return v as Record<string, unknown>;
}

function text(v: unknown, what: string, max: number): string {
  if (typeof v !== "string" || v.length === 0 || [...v].length > max) throw invalid(`${what} must be 1–${max} characters`);
  return v;
}

function finite(v: unknown, what: string): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalid(`${what} must be a finite number`);
  return v;
}

function target(v: unknown, what: string): AdviceTarget {
  const kind = (v as { kind?: unknown } | null)?.kind;
  if (kind === "page") {
    record(v, what, new Set(["kind"]));
    return { kind: "page" };
  }
  if (kind === "node") {
    const r = record(v, what, new Set(["kind", "nodeId"]));
    return { kind: "node", nodeId: text(r.nodeId, `${what}.nodeId`, 256) };
  }
  if (kind === "region") {
    const r = record(v, what, new Set(["kind", "x", "y", "width", "height"]));
    const rect = { x: finite(r.x, `${what}.x`), y: finite(r.y, `${what}.y`), width: finite(r.width, `${what}.width`), height: finite(r.height, `${what}.height`) };
    if (rect.width <= 0 || rect.height <= 0) throw invalid(`${what} must have a positive area`);
    return { kind: "region", ...rect };
  }
  throw invalid(`${what}.kind must be page, node or region`);
}

/** Re-reads `input` as advice, or throws `invalid_request` naming what is wrong. */
export function readAdvice(input: unknown): PageAdvice {
  const a = record(input, "the advice", ADVICE_KEYS);
  if (a.protocol !== ADVICE_PROTOCOL) throw invalid(`protocol must be ${ADVICE_PROTOCOL}`);
  const revision = a.revision;
  if (typeof revision !== "number" || !Number.isInteger(revision) || revision < 1) throw invalid("revision must be a positive integer");
  if (!Array.isArray(a.items) || a.items.length > MAX_ADVICE_ITEMS) throw invalid(`items must be a list of at most ${MAX_ADVICE_ITEMS}`);
  const ids = new Set<string>();
  const items = a.items.map((raw, i): AdviceItem => {
    const it = record(raw, `item ${i}`, ITEM_KEYS);
    const id = text(it.id, `item ${i}.id`, 128);
    if (ids.has(id)) throw invalid(`item ${i}: the id "${id}" is used twice`);
    ids.add(id);
    if (!ADVICE_DIMENSIONS.includes(it.dimension as AdviceDimension)) throw invalid(`item ${i}.dimension is not a design dimension`);
    if (it.priority !== "low" && it.priority !== "medium" && it.priority !== "high") throw invalid(`item ${i}.priority must be low, medium or high`);
    return {
      id,
      dimension: it.dimension as AdviceDimension,
      priority: it.priority,
      target: target(it.target, `item ${i}.target`),
      title: text(it.title, `item ${i}.title`, MAX_ADVICE_TITLE),
      rationale: text(it.rationale, `item ${i}.rationale`, MAX_ADVICE_TEXT),
      recommendation: text(it.recommendation, `item ${i}.recommendation`, MAX_ADVICE_TEXT),
    };
  });
  return { protocol: ADVICE_PROTOCOL, revision, provider: text(a.provider, "provider", 200), model: text(a.model, "model", 200), items };
}

/** The advice of the current revision, and who listens for it. */
export interface AdviceBoard {
  /** Keeps `advice` when it is about `revision` (the page's current one); says whether it did. */
  show(advice: PageAdvice, revision: number): boolean;
  /** The advice about `revision`, or null; advice about an older revision is dropped here. */
  current(revision: number): PageAdvice | null;
  /** Calls `listener` when advice arrives or is dropped; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** An empty board. */
export function createAdviceBoard(): AdviceBoard {
  let held: PageAdvice | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) {
      try {
        l();
      } catch {
        // A throwing listener must not keep the others from hearing.
      }
    }
  };
  return {
    show(advice, revision) {
      if (advice.revision !== revision) return false;
      held = advice;
      notify();
      return true;
    },
    current(revision) {
      if (held !== null && held.revision !== revision) {
        held = null;
        notify();
      }
      return held;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
