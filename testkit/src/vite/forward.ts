//! Forwards one repair document — or one candidates read — to the session's loopback channel and
//! brings back its answer. One request with the session's bearer token, bounded in time and in
//! the size of the answer; nothing from the page's request but the body (for a POST) or the
//! `page` parameter (for a read) crosses over (no cookies, no headers).
import { request } from "node:http";
import type { DevChannel } from "./channel";

/** Most milliseconds the session gets to answer one forwarded document. */
export const FORWARD_TIMEOUT_MS = 5_000;
/** Largest answer accepted from the session, in bytes. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** What the session answered, or why it could not be asked. */
export type ForwardResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; unreachable: boolean; reason: string };

/** POSTs `body` to the channel and parses the JSON answer; never rejects. */
export function forwardToSession(channel: DevChannel, body: Buffer, timeoutMs: number = FORWARD_TIMEOUT_MS): Promise<ForwardResult> {
  const headers = { "content-type": "application/json", "content-length": String(body.length) };
  return exchange(channel, channel.url, "POST", headers, body, timeoutMs);
}

/**
 * GETs the session's candidates for `page` (`<channel url>/candidates?page=…`, the read the
 * channel serves, `a3s.test.run-candidates/1`) and parses the JSON answer; never rejects.
 */
export function forwardCandidatesRead(channel: DevChannel, page: string, timeoutMs: number = FORWARD_TIMEOUT_MS): Promise<ForwardResult> {
  const url = new URL(channel.url.href);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/candidates`;
  url.search = "";
  url.hash = "";
  url.searchParams.set("page", page);
  return exchange(channel, url, "GET", {}, undefined, timeoutMs);
}

function exchange(channel: DevChannel, url: URL, method: "GET" | "POST", headers: Record<string, string>, body: Buffer | undefined, timeoutMs: number): Promise<ForwardResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ForwardResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = request(url, { method, headers: { authorization: `Bearer ${channel.token}`, ...headers }, agent: false });
    const timer = setTimeout(() => finish({ ok: false, unreachable: true, reason: `the a3s-test dev session did not answer within ${timeoutMs} ms` }), timeoutMs);
    req.on("error", (e: NodeJS.ErrnoException) => {
      const refused = e.code === "ECONNREFUSED" || e.code === "ECONNRESET";
      finish({ ok: false, unreachable: true, reason: refused ? "the a3s-test dev session is not listening on its channel" : `the a3s-test dev session could not be reached (${e.code ?? e.message})` });
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          finish({ ok: false, unreachable: false, reason: `the a3s-test dev session answered more than ${MAX_ANSWER_BYTES} bytes` });
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", () => finish({ ok: false, unreachable: true, reason: "the a3s-test dev session closed its answer early" }));
      res.on("end", () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          finish({ ok: false, unreachable: false, reason: `the a3s-test dev session answered ${res.statusCode ?? 0} without a JSON body` });
          return;
        }
        finish({ ok: true, status: res.statusCode ?? 502, body: parsed });
      });
    });
    if (body === undefined) req.end();
    else req.end(body);
  });
}
