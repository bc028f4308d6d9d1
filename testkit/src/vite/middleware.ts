//! The repair endpoint as a connect middleware: it refuses anything but a same-origin JSON POST
//! of an `a3s.test.repair/1` document, then hands the document to the running `a3s-test dev`
//! session and answers with what the session said. It holds no authority of its own: the
//! session decides what a finding becomes, and without a session the page is told to keep its
//! queue (503).
//!
//! It answers one read as well: `GET <endpoint>/candidates?page=URL`, the latest run's
//! candidates for that page (`a3s.test.run-candidates/1`), which it asks the session's channel
//! for under the same access rule as `a3s-test repair-endpoint` (an `Origin`, when sent, is this
//! server's; a `Sec-Fetch-Site`, when sent, is same-origin; the page is one of this server's).
import type { IncomingMessage, ServerResponse } from "node:http";
import { REPAIR_PROTOCOL } from "../version";
import { readBoundedBody, MAX_BODY_BYTES } from "./body";
import { readChannel } from "./channel";
import { VITE_ENDPOINT_CODES as CODES, sendError, sendJson, type ViteEndpointCode } from "./codes";
import { forwardCandidatesRead, forwardToSession, FORWARD_TIMEOUT_MS, type ForwardResult } from "./forward";

/** Last path segment of the candidates read, after the endpoint's path. */
export const CANDIDATES_SUFFIX = "/candidates";
/** Longest `page` parameter forwarded, in bytes (the same bound as `a3s-test repair-endpoint`). */
export const MAX_PAGE_URL_BYTES = 4096;

/** What the middleware needs from its host (the Vite plugin, or a test). */
export interface RepairMiddlewareOptions {
  /** Absolute URL path of the endpoint, e.g. `/__a3s-test/repairs`. */
  endpoint: string;
  /** Origins a page of this dev server has (`http://127.0.0.1:5173`), asked per request. */
  allowedOrigins: () => ReadonlySet<string>;
  /** Path of the session's channel file, asked per request. */
  channelFile: () => string;
  /** Deadline for the session's answer. @default FORWARD_TIMEOUT_MS */
  forwardTimeoutMs?: number;
}

/** A connect-style handler (`next` runs for requests to other paths). */
export type RepairMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

function pathOf(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.search(/[?#]/);
  return q < 0 ? raw : raw.slice(0, q);
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [type, ...params] = value.split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") return false;
  return params.every((p) => p === "" || p === "charset=utf-8");
}

function protocolOf(body: Buffer): { ok: true; protocol: unknown } | { ok: false } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: true, protocol: undefined };
    return { ok: true, protocol: (value as Record<string, unknown>).protocol };
  } catch {
    return { ok: false };
  }
}

/** Checks the request head; answers and returns false when it is refused. */
function headAccepted(req: IncomingMessage, res: ServerResponse, origins: ReadonlySet<string>): boolean {
  if (req.method !== "POST") {
    sendError(res, 405, CODES.method, "the repair endpoint takes POST only", { allow: "POST" });
    return false;
  }
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  if (origin === undefined || !origins.has(origin) || (site !== undefined && site !== "same-origin")) {
    sendError(res, 403, CODES.origin, `the repair endpoint takes requests from this dev server's own pages only (got Origin ${origin ?? "none"})`);
    return false;
  }
  if (!isJsonContentType(req.headers["content-type"])) {
    sendError(res, 415, CODES.contentType, "the repair endpoint takes content-type: application/json");
    return false;
  }
  const length = req.headers["content-length"];
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) {
    sendError(res, 413, CODES.tooLarge, `a repair document is at most ${MAX_BODY_BYTES} bytes`, { connection: "close" });
    return false;
  }
  return true;
}

/** The one http(s) page a candidates read asks about, or why it is refused. */
function pageOf(rawUrl: string | undefined, origins: ReadonlySet<string>): { ok: true; page: string } | { ok: false; status: 400 | 403; code: ViteEndpointCode; message: string } {
  const bad = { ok: false, status: 400, code: CODES.badRequest, message: `send one \`page\` parameter: the page's http(s) URL (at most ${MAX_PAGE_URL_BYTES} bytes)` } as const;
  let pages: string[];
  try {
    pages = new URL(rawUrl ?? "/", "http://endpoint.invalid").searchParams.getAll("page");
  } catch {
    return bad;
  }
  const raw = pages.length === 1 ? pages[0] : undefined;
  if (raw === undefined || raw === "" || Buffer.byteLength(raw) > MAX_PAGE_URL_BYTES) return bad;
  let page: URL;
  try {
    page = new URL(raw);
  } catch {
    return bad;
  }
  if (page.protocol !== "http:" && page.protocol !== "https:") return bad;
  if (!origins.has(page.origin)) {
    return { ok: false, status: 403, code: CODES.origin, message: `\`page\` must be a page of this dev server (got origin ${page.origin.slice(0, 200)})` };
  }
  return { ok: true, page: page.href };
}

/** Answers `GET <endpoint>/candidates?page=URL` from the session's channel. */
async function handleCandidates(req: IncomingMessage, res: ServerResponse, options: RepairMiddlewareOptions): Promise<void> {
  if (req.method !== "GET") {
    sendError(res, 405, CODES.method, "the candidates read takes GET only", { allow: "GET" });
    return;
  }
  const origins = options.allowedOrigins();
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  // A same-origin GET usually carries no Origin, so none is required; one that is sent must be ours.
  if ((origin !== undefined && !origins.has(origin)) || (site !== undefined && site !== "same-origin")) {
    sendError(res, 403, CODES.origin, `the candidates read takes requests from this dev server's own pages only (got Origin ${(origin ?? "none").slice(0, 200)}, Sec-Fetch-Site ${(site ?? "none").slice(0, 40)})`);
    return;
  }
  const page = pageOf(req.url, origins);
  if (!page.ok) {
    sendError(res, page.status, page.code, page.message);
    return;
  }
  const lookup = await readChannel(options.channelFile());
  if (!lookup.ok) {
    sendError(res, 503, CODES.devUnavailable, `${lookup.reason}; start \`a3s-test dev\` to read the latest run's candidates`);
    return;
  }
  const answer: ForwardResult = await forwardCandidatesRead(lookup.channel, page.page, options.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS);
  if (!answer.ok) {
    sendError(res, answer.unreachable ? 503 : 502, CODES.devUnavailable, answer.reason);
    return;
  }
  sendJson(res, answer.status, answer.body);
}

async function handle(req: IncomingMessage, res: ServerResponse, options: RepairMiddlewareOptions): Promise<void> {
  if (!headAccepted(req, res, options.allowedOrigins())) return;
  const read = await readBoundedBody(req);
  if (!read.ok) {
    if (read.why === "too_large") sendError(res, 413, CODES.tooLarge, `a repair document is at most ${MAX_BODY_BYTES} bytes`, { connection: "close" });
    else if (read.why === "timeout") sendError(res, 408, CODES.timeout, "the repair document did not arrive in time", { connection: "close" });
    return;
  }
  const parsed = protocolOf(read.body);
  if (!parsed.ok) {
    sendError(res, 400, CODES.malformed, "the repair document is not UTF-8 JSON");
    return;
  }
  if (parsed.protocol !== REPAIR_PROTOCOL) {
    sendError(res, 400, CODES.protocol, `the repair document must declare "protocol": "${REPAIR_PROTOCOL}"`);
    return;
  }
  const lookup = await readChannel(options.channelFile());
  if (!lookup.ok) {
    sendError(res, 503, CODES.devUnavailable, `${lookup.reason}; start \`a3s-test dev\` (the page keeps its queue)`);
    return;
  }
  const answer = await forwardToSession(lookup.channel, read.body, options.forwardTimeoutMs ?? FORWARD_TIMEOUT_MS);
  if (!answer.ok) {
    sendError(res, answer.unreachable ? 503 : 502, CODES.devUnavailable, `${answer.reason} (the page keeps its queue)`);
    return;
  }
  sendJson(res, answer.status, answer.body);
}

/** Builds the middleware; requests to other paths go to `next` untouched. */
export function createRepairMiddleware(options: RepairMiddlewareOptions): RepairMiddleware {
  const candidates = `${options.endpoint.replace(/\/+$/, "")}${CANDIDATES_SUFFIX}`;
  return (req, res, next) => {
    const path = pathOf(req.url);
    const handler = path === options.endpoint ? handle : path === candidates ? handleCandidates : undefined;
    if (handler === undefined) {
      next();
      return;
    }
    handler(req, res, options).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, 503, CODES.devUnavailable, `the repair endpoint failed: ${e instanceof Error ? e.message : String(e)}`);
    });
  };
}
