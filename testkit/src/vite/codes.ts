//! The stable codes and the JSON error body of the Vite repair endpoint. They are the codes the
//! `a3s-test repair-endpoint` command answers with, so a page (and an agent reading its log)
//! branches on one vocabulary whichever endpoint received its POST.
import type { ServerResponse } from "node:http";

/** Codes the plugin answers with; the session's own answers pass through unchanged. */
export const VITE_ENDPOINT_CODES = {
  /** The request is not a POST (or, on `…/candidates`, not a GET). */
  method: "test.session.repair_endpoint_method",
  /** A candidates read without one http(s) `page` parameter of at most 4096 bytes. */
  badRequest: "test.session.repair_endpoint_bad_request",
  /** `Origin` is missing or not the dev server's own origin (or `Sec-Fetch-Site` is not same-origin). */
  origin: "test.session.repair_endpoint_origin",
  /** The body is not declared as `application/json`. */
  contentType: "test.session.repair_endpoint_content_type",
  /** The body is larger than 1 MiB. */
  tooLarge: "test.session.repair_endpoint_too_large",
  /** The body did not arrive before the read deadline. */
  timeout: "test.session.repair_endpoint_timeout",
  /** The body is not JSON (or not UTF-8). */
  malformed: "test.session.repair_malformed_document",
  /** The document's `protocol` is not `a3s.test.repair/1`. */
  protocol: "test.session.repair_unsupported_protocol",
  /** No running `a3s-test dev` session could take the document. */
  devUnavailable: "test.session.dev_unavailable",
} as const;

/** One of {@link VITE_ENDPOINT_CODES}. */
export type ViteEndpointCode = (typeof VITE_ENDPOINT_CODES)[keyof typeof VITE_ENDPOINT_CODES];

/** Writes `body` as a JSON answer with `status`; never throws on a closed socket. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

/** Writes the `{"error":{"code","message"}}` refusal every endpoint of A3S Test uses. */
export function sendError(res: ServerResponse, status: number, code: ViteEndpointCode, message: string, headers?: Record<string, string>): void {
  sendJson(res, status, { error: { code, message } }, headers);
}
