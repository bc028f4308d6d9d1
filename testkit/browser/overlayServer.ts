// Loopback server for the Review Overlay browser tests: the built demo (demo/dist) plus the
// sample's same-origin repair endpoint (POST /__a3s-test/repairs), which records every body
// and can be switched to fail so the tests see the page queue survive an endpoint error. Like the
// real endpoint, an actions document gets a per-item answer (applied, duplicate for a request id
// seen before, or refused with a code when told to), so answered actions leave the page's queue.
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";
import type { AddressInfo } from "node:net";
import { sendStatic } from "./harness";
/** Largest endpoint body accepted (the sample endpoint bounds its body). */
const MAX_BODY = 4 * 1024 * 1024;

/** A running server. */
export interface OverlayServer {
  url: string;
  /** Every JSON body POSTed to the endpoint, in arrival order. */
  posts: unknown[];
  /** Makes the endpoint answer 503 (true) or 204 (false). */
  setFailing(failing: boolean): void;
  /** Makes the endpoint refuse every new action with `code` (null: apply them). */
  refuseActions(code: string | null): void;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (random port). */
export async function serveOverlayDemo(root: string): Promise<OverlayServer> {
  const base = resolve(root);
  const posts: unknown[] = [];
  let failing = false;
  let refusal: string | null = null;
  const applied = new Set<string>();
  const answerActions = (actions: Array<Record<string, unknown>>) =>
    actions.map((a) => {
      const head = { id: a.id, findingId: a.repairId, requestId: a.requestId };
      const requestId = String(a.requestId);
      if (applied.has(requestId)) return { ...head, outcome: "duplicate", result: { finding_id: a.repairId, replayed: true } };
      if (refusal !== null) return { ...head, outcome: "refused", error: { code: refusal, message: `${String(a.kind)} is not allowed now` } };
      applied.add(requestId);
      return { ...head, outcome: "applied", result: { finding_id: a.repairId, replayed: false } };
    });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
      if (path === "/__a3s-test/repairs") {
        if (req.method !== "POST" || !(req.headers["content-type"] ?? "").startsWith("application/json")) {
          res.writeHead(405).end();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of req) {
          size += (chunk as Buffer).length;
          if (size > MAX_BODY) {
            res.writeHead(413).end();
            return;
          }
          chunks.push(chunk as Buffer);
        }
        if (failing) {
          res.writeHead(503).end();
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { actions?: Array<Record<string, unknown>> };
        posts.push(body);
        if (Array.isArray(body.actions)) {
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ protocol: "a3s.test.repair/1", actions: answerActions(body.actions) }));
          return;
        }
        res.writeHead(204).end();
        return;
      }
      await sendStatic(base, path, "review.html", res);
    })();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    posts,
    setFailing: (f) => void (failing = f),
    refuseActions: (code) => void (refusal = code),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
