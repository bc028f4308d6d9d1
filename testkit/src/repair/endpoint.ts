//! Delivery of sent findings and human actions to a same-origin `repairEndpoint` by POST
//! (same-origin credentials). The transport reports the status and the parsed JSON answer; the
//! queue decides what leaves the page (a failed POST leaves everything queued).
import { TestKitError } from "../errors";

/** What one POST got back: `status` 0 (and no body) when no HTTP answer arrived in time. */
export interface TransportAnswer {
  /** A 2xx status. */
  ok: boolean;
  status: number;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
}

/** Posts a JSON body and reports the answer; never rejects. */
export type RepairTransport = (body: unknown) => Promise<TransportAnswer>;

/** Most milliseconds one POST may take. */
export const ENDPOINT_TIMEOUT_MS = 10_000;

/** Resolves `endpoint` against the page and rejects other origins. */
export function resolveSameOriginEndpoint(endpoint: string, pageHref: string): string {
  let url: URL;
  let page: URL;
  try {
    page = new URL(pageHref);
    url = new URL(endpoint, page);
  } catch {
    throw new TestKitError("invalid_options", `repairEndpoint "${endpoint}" is not a valid URL`);
  }
  if (url.origin !== page.origin) {
    throw new TestKitError("invalid_options", `repairEndpoint must be same-origin (${page.origin}), got ${url.origin}`);
  }
  return url.href;
}

/** A transport that POSTs to `url` with `fetchFn`. */
export function endpointTransport(url: string, fetchFn: typeof fetch): RepairTransport {
  return async (body) => {
    const controller = typeof AbortController === "function" ? new AbortController() : undefined;
    const timer = controller !== undefined ? setTimeout(() => controller.abort(), ENDPOINT_TIMEOUT_MS) : undefined;
    try {
      const res = await fetchFn(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        ...(controller !== undefined ? { signal: controller.signal } : {}),
      });
      let parsed: unknown;
      try {
        parsed = await res.json();
      } catch {
        parsed = undefined;
      }
      return { ok: res.ok, status: res.status, body: parsed };
    } catch {
      return { ok: false, status: 0, body: undefined };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };
}
