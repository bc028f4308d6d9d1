//! Reads a request body with a byte ceiling and a deadline, so a slow or huge upload can neither
//! hold the dev server's memory nor one of its sockets for long.
import type { IncomingMessage } from "node:http";

/** Largest repair document accepted, in bytes (the same ceiling as `a3s-test repair-endpoint`). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Most milliseconds a request body may take to arrive. */
export const BODY_TIMEOUT_MS = 10_000;

/** The body, or why it was not read. */
export type BodyResult = { ok: true; body: Buffer } | { ok: false; why: "too_large" | "timeout" | "aborted" };

/** Reads at most `maxBytes` of `req` within `timeoutMs`. */
export function readBoundedBody(req: IncomingMessage, maxBytes: number = MAX_BODY_BYTES, timeoutMs: number = BODY_TIMEOUT_MS): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      if (!result.ok) req.resume();
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) finish({ ok: false, why: "too_large" });
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: Buffer.concat(chunks) });
    const onError = (): void => finish({ ok: false, why: "aborted" });
    const timer = setTimeout(() => finish({ ok: false, why: "timeout" }), timeoutMs);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}
