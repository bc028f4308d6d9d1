//! Delivery of sent findings to a same-origin `repairEndpoint` by POST (same-origin credentials).
//! A failed POST leaves the findings in the page queue for the session to drain.
import { TestKitError } from "../errors";

/** Posts a JSON body; resolves true on a 2xx answer. */
export type RepairTransport = (body: unknown) => Promise<boolean>;

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
      return res.ok;
    } catch {
      return false;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };
}
