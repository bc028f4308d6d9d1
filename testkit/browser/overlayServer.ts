// Loopback server for the Review Overlay browser tests: the built demo (demo/dist) plus the
// sample's same-origin repair endpoint (POST /__a3s-test/repairs), which records every body
// and can be switched to fail so the tests see the page queue survive an endpoint error.
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import type { AddressInfo } from "node:net";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
};
/** Largest endpoint body accepted (the sample endpoint bounds its body). */
const MAX_BODY = 4 * 1024 * 1024;

/** A running server. */
export interface OverlayServer {
  url: string;
  /** Every JSON body POSTed to the endpoint, in arrival order. */
  posts: unknown[];
  /** Makes the endpoint answer 503 (true) or 204 (false). */
  setFailing(failing: boolean): void;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (random port). */
export async function serveOverlayDemo(root: string): Promise<OverlayServer> {
  const base = resolve(root);
  const posts: unknown[] = [];
  let failing = false;
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
        posts.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        res.writeHead(204).end();
        return;
      }
      let file = normalize(join(base, path));
      if (!file.startsWith(base)) {
        res.writeHead(403).end();
        return;
      }
      if (path.endsWith("/") || extname(path) === "") file = join(base, "review.html");
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
        res.end(body);
      } catch {
        res.writeHead(404).end("not found");
      }
    })();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    posts,
    setFailing: (f) => void (failing = f),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
