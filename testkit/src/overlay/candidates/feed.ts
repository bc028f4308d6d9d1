/**
 * Quality candidates from the latest run (`a3s.test.run-candidates/1`): the failed and flaky
 * scenarios A3S Test's repair endpoint reports for this page (`GET …/candidates?page=URL`).
 *
 * A candidate is the runner's deterministic fact about the page, offered to the reviewer — not
 * a finding. This module fetches the feed (same origin, a deadline, a bounded body) and re-reads
 * it as untrusted input (closed shapes, bounded counts and texts). Nothing here queues, sends or
 * records anything, and nothing changes the run's verdict.
 */

/** The protocol string of the feed. */
export const CANDIDATES_PROTOCOL = "a3s.test.run-candidates/1";
/** Most candidates kept (the endpoint sends at most as many). */
export const MAX_CANDIDATES = 50;
/** Longest message, in characters. */
export const MAX_CANDIDATE_TEXT = 2000;
/** Longest name, id, target, location or URL, in characters. */
const MAX_SHORT = 500;
/** Most bytes of a feed read. */
const MAX_FEED_BYTES = 512 * 1024;
/** Most milliseconds the read may take. */
export const CANDIDATES_TIMEOUT_MS = 10_000;

/** How a locator's text is compared (both sides whitespace-normalised). */
export type TextMode = "contains" | "exact";

/** The failed step's element as a simple locator the page can look for. */
export type CandidateLocator =
  | { kind: "role"; role: string; name?: string; mode: TextMode }
  | { kind: "label"; value: string; mode: TextMode }
  | { kind: "placeholder"; value: string; mode: TextMode }
  | { kind: "text"; value: string; mode: TextMode }
  | { kind: "test_id"; value: string }
  | { kind: "css"; value: string };

/** One failed or flaky scenario of the latest run on this page. */
export interface RunCandidate {
  id: string;
  name: string;
  status: "failed" | "timed_out" | "flaky";
  code: string;
  message: string;
  target?: string;
  locator?: CandidateLocator;
  location?: string;
  page_url: string;
}

/** The feed for one page. */
export interface RunCandidates {
  protocol: typeof CANDIDATES_PROTOCOL;
  run_id?: string;
  started_at?: string;
  page: string;
  candidates: RunCandidate[];
  omitted: number;
}

/** Why a feed was refused. */
export class CandidatesError extends Error {}

function record(v: unknown, what: string, keys: readonly string[]): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new CandidatesError(`${what} must be an object`);
  for (const k of Object.keys(v)) if (!keys.includes(k)) throw new CandidatesError(`${what} has an unknown field "${k.slice(0, 40)}"`);
  return v as Record<string, unknown>;
}

function text(v: unknown, what: string, max: number): string {
  if (typeof v !== "string" || v.length === 0 || [...v].length > max) throw new CandidatesError(`${what} must be 1–${max} characters`);
  return v;
}

function optional(v: unknown, what: string, max: number): string | undefined {
  return v === undefined ? undefined : text(v, what, max);
}

function mode(v: unknown, what: string): TextMode {
  if (v !== "contains" && v !== "exact") throw new CandidatesError(`${what} must be contains or exact`);
  return v;
}

function locator(v: unknown, what: string): CandidateLocator {
  const kind = (v as { kind?: unknown } | null)?.kind;
  if (kind === "role") {
    const r = record(v, what, ["kind", "role", "name", "mode"]);
    const name = optional(r.name, `${what}.name`, MAX_SHORT);
    return { kind, role: text(r.role, `${what}.role`, 100), ...(name !== undefined ? { name } : {}), mode: mode(r.mode, `${what}.mode`) };
  }
  if (kind === "label" || kind === "placeholder" || kind === "text") {
    const r = record(v, what, ["kind", "value", "mode"]);
    return { kind, value: text(r.value, `${what}.value`, MAX_SHORT), mode: mode(r.mode, `${what}.mode`) };
  }
  if (kind === "test_id" || kind === "css") {
    const r = record(v, what, ["kind", "value"]);
    return { kind, value: text(r.value, `${what}.value`, MAX_SHORT) };
  }
  throw new CandidatesError(`${what}.kind is not a locator kind`);
}

const ITEM_KEYS = ["id", "name", "status", "code", "message", "target", "locator", "location", "page_url"];

/** Re-reads `input` as a candidates feed, or throws {@link CandidatesError} naming what is wrong. */
export function readCandidates(input: unknown): RunCandidates {
  const f = record(input, "the feed", ["protocol", "run_id", "started_at", "page", "candidates", "omitted"]);
  if (f.protocol !== CANDIDATES_PROTOCOL) throw new CandidatesError(`protocol must be ${CANDIDATES_PROTOCOL}`);
  if (!Array.isArray(f.candidates) || f.candidates.length > MAX_CANDIDATES) throw new CandidatesError(`candidates must be a list of at most ${MAX_CANDIDATES}`);
  if (typeof f.omitted !== "number" || !Number.isSafeInteger(f.omitted) || f.omitted < 0) throw new CandidatesError("omitted must be a count");
  const ids = new Set<string>();
  const candidates = f.candidates.map((raw, i): RunCandidate => {
    const c = record(raw, `candidate ${i}`, ITEM_KEYS);
    const id = text(c.id, `candidate ${i}.id`, MAX_SHORT);
    if (ids.has(id)) throw new CandidatesError(`candidate ${i}: the id "${id.slice(0, 40)}" is used twice`);
    ids.add(id);
    if (c.status !== "failed" && c.status !== "timed_out" && c.status !== "flaky") throw new CandidatesError(`candidate ${i}.status must be failed, timed_out or flaky`);
    const code = text(c.code, `candidate ${i}.code`, 100);
    if (!/^test\.[a-z0-9_.]+$/.test(code)) throw new CandidatesError(`candidate ${i}.code is not a code`);
    const target = optional(c.target, `candidate ${i}.target`, MAX_SHORT);
    const location = optional(c.location, `candidate ${i}.location`, MAX_SHORT);
    return {
      id,
      name: text(c.name, `candidate ${i}.name`, MAX_SHORT),
      status: c.status,
      code,
      message: text(c.message, `candidate ${i}.message`, MAX_CANDIDATE_TEXT),
      ...(target !== undefined ? { target } : {}),
      ...(c.locator !== undefined ? { locator: locator(c.locator, `candidate ${i}.locator`) } : {}),
      ...(location !== undefined ? { location } : {}),
      page_url: text(c.page_url, `candidate ${i}.page_url`, MAX_SHORT),
    };
  });
  const runId = optional(f.run_id, "run_id", 64);
  const startedAt = optional(f.started_at, "started_at", 64);
  return {
    protocol: CANDIDATES_PROTOCOL,
    ...(runId !== undefined ? { run_id: runId } : {}),
    ...(startedAt !== undefined ? { started_at: startedAt } : {}),
    page: text(f.page, "page", MAX_SHORT),
    candidates,
    omitted: f.omitted,
  };
}

/**
 * Reads the feed at `endpoint` (resolved against the page; another origin is refused) for the
 * page at `pageHref`. Never rejects: an unreachable endpoint, an error answer or a malformed
 * feed is `{ error }` with a one-line reason.
 */
export async function fetchCandidates(endpoint: string, pageHref: string, fetchFn: typeof fetch): Promise<{ feed: RunCandidates } | { error: string }> {
  let url: URL;
  try {
    const page = new URL(pageHref);
    url = new URL(endpoint, page);
    if (url.origin !== page.origin) return { error: `the candidates endpoint must be same-origin (${page.origin})` };
    url.searchParams.set("page", page.href);
  } catch {
    return { error: `"${endpoint.slice(0, 80)}" is not a valid URL` };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CANDIDATES_TIMEOUT_MS);
  try {
    const res = await fetchFn(url.href, { method: "GET", credentials: "same-origin", headers: { accept: "application/json" }, signal: controller.signal });
    const body = await res.text();
    if (body.length > MAX_FEED_BYTES) return { error: "the candidates feed is too large" };
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { error: `the candidates endpoint answered ${res.status} without JSON` };
    }
    if (!res.ok) {
      const code = (parsed as { error?: { code?: unknown } } | null)?.error?.code;
      return { error: `the candidates endpoint answered ${res.status}${typeof code === "string" ? ` (${code.slice(0, 80)})` : ""}` };
    }
    return { feed: readCandidates(parsed) };
  } catch (e) {
    return { error: e instanceof CandidatesError ? `the candidates feed was refused: ${e.message}` : "the candidates endpoint did not answer" };
  } finally {
    clearTimeout(timer);
  }
}
