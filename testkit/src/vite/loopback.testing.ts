//! Loopback helpers of the plugin's tests: a recording stand-in for the session's channel, a
//! channel file, and a raw POST whose every header the test chooses. Real sockets throughout.
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One request the fake channel received. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A channel server on 127.0.0.1 that records requests and answers with `answer`. */
export interface FakeChannel {
  url: string;
  received: Received[];
  answer: { status: number; body: string };
  /** When true, requests are held and never answered. */
  hang: boolean;
  close(): Promise<void>;
}

/** Listens on an ephemeral loopback port. */
export function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** Closes a server and every connection it still holds. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts the fake session channel. */
export async function startFakeChannel(): Promise<FakeChannel> {
  const fake: FakeChannel = {
    url: "",
    received: [],
    answer: { status: 200, body: JSON.stringify({ protocol: "a3s.test.repair/1", accepted: ["finding-1"], duplicates: [], held: [] }) },
    hang: false,
    close: () => closeServer(server),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      fake.received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (fake.hang) return;
      res.writeHead(fake.answer.status, { "content-type": "application/json" });
      res.end(fake.answer.body);
    });
  });
  const port = await listen(server);
  fake.url = `http://127.0.0.1:${port}/repairs`;
  return fake;
}

/** Writes a channel file (mode 0600 unless told otherwise) in a fresh directory. */
export function writeChannelFile(content: unknown, mode = 0o600): string {
  const dir = mkdtempSync(join(tmpdir(), "a3s-vite-"));
  const file = join(dir, "channel.json");
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content), { mode });
  return file;
}

/** The answer to one raw request. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  json: unknown;
}

/** Sends one request with exactly these headers and body (chunked when no content-length is given). */
export function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    // A refused upload may be cut short by the server; the answer still arrives first.
    req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
    req.end(body);
  });
}
