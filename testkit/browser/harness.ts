// Test harness for the real-browser smoke test: a loopback static server for demo/dist and a
// Chromium found on this machine (playwright-core drives it; it never downloads a browser).
import { createServer, type Server, type ServerResponse } from "node:http";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import type { AddressInfo } from "node:net";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
};

/**
 * Answers GET `path` from the folder `base` (absolute): 403 outside it, `fallback` for folders and
 * extension-less paths, 404 for a missing file. Shared by every loopback server of the browser tests.
 */
export async function sendStatic(base: string, path: string, fallback: string, res: ServerResponse): Promise<void> {
  let file = normalize(join(base, path));
  if (!file.startsWith(base)) {
    res.writeHead(403).end();
    return;
  }
  if (path.endsWith("/") || extname(path) === "") file = join(base, fallback);
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    res.end(body);
  } catch {
    res.writeHead(404).end("not found");
  }
}

/** Serves `root` on 127.0.0.1 (random port); unknown extension-less paths get index.html. */
export async function serveStatic(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const base = resolve(root);
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
      await sendStatic(base, path, "index.html", res);
    })();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const CANDIDATES = ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"];

/**
 * Finds a Chromium binary (A3S_CHROMIUM overrides). Waits up to `deadlineMs` for one to appear,
 * since the machine set-up may still be installing it; re-checks when /usr/lib changes.
 */
export async function findChromium(deadlineMs: number): Promise<string> {
  const fromEnv = process.env.A3S_CHROMIUM;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const found = () => CANDIDATES.find((p) => existsSync(p));
  const deadline = Date.now() + deadlineMs;
  let hit = found();
  while (hit === undefined && Date.now() < deadline) {
    const { watch } = await import("node:fs");
    await new Promise<void>((ok) => {
      const watcher = watch(existsSync("/usr/lib/chromium") ? "/usr/lib/chromium" : "/usr/lib", () => {
        watcher.close();
        clearTimeout(timer);
        ok();
      });
      const timer = setTimeout(() => {
        watcher.close();
        ok();
      }, Math.max(0, Math.min(5_000, deadline - Date.now())));
    });
    hit = found();
  }
  if (hit === undefined) throw new Error(`no Chromium at ${CANDIDATES.join(" or ")}; install with: apt-get install -y chromium chromium-headless-shell`);
  return hit;
}

/** CPU milliseconds (user + system) used so far by every Chromium renderer below this process. */
export async function rendererCpuMs(): Promise<number> {
  const { readdir } = await import("node:fs/promises");
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  const renderer = new Set<number>();
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      // Fields after the parenthesised command: state ppid … utime(14) stime(15).
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(pid, Number(rest[1]));
      cpu.set(pid, Number(rest[11]) + Number(rest[12]));
      const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.includes("--type=renderer")) renderer.add(pid);
    } catch {
      // The process ended while we looked.
    }
  }
  const isMine = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const pid of renderer) if (isMine(pid)) ticks += cpu.get(pid) ?? 0;
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}
