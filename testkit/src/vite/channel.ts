//! The hand-over file of a running `a3s-test dev` session: where its loopback repair channel
//! listens and the bearer token it expects. The file is the only thing the plugin learns about
//! the session, so it is read fresh for every request (a restarted session gets a new port and
//! token) and refused unless it is small, private to the user, and points at loopback.
import { promises as fs } from "node:fs";
import * as path from "node:path";

/** Environment variable in which `a3s-test dev` hands the channel file's path to the dev server. */
export const DEV_CHANNEL_ENV = "A3S_TEST_DEV_CHANNEL";
/** Protocol of the channel file. */
export const DEV_CHANNEL_PROTOCOL = "a3s.test.dev-channel/1";
/** Session id `a3s-test dev` uses when none is given. */
export const DEFAULT_DEV_SESSION = "dev";
/** Largest channel file read, in bytes (the real one is about 150). */
const MAX_CHANNEL_BYTES = 16 * 1024;

/** A validated channel file. */
export interface DevChannel {
  /** `http://<loopback>:<port>/…`: where the session takes repair documents. */
  url: URL;
  /** Bearer token of this session. */
  token: string;
  /** Process id of the `a3s-test dev` process. */
  pid: number;
}

/** The channel, or why there is none (a sentence for the 503 message). */
export type ChannelLookup = { ok: true; channel: DevChannel } | { ok: false; reason: string };

/** Where the channel file is: `$A3S_TEST_DEV_CHANNEL`, else the default session's file under `root`. */
export function channelPath(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[DEV_CHANNEL_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return path.resolve(root, fromEnv);
  return path.join(root, ".a3s-test", "dev", DEFAULT_DEV_SESSION, "channel.json");
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether `hostname` (as `URL.hostname` gives it) names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Whether a process with this id exists (EPERM means it exists but belongs to someone else). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Checks the parsed file; returns the channel or the reason it is unusable. */
export function parseChannel(value: unknown, file: string): ChannelLookup {
  const bad = (what: string): ChannelLookup => ({ ok: false, reason: `the session channel file ${file} ${what}` });
  if (typeof value !== "object" || value === null || Array.isArray(value)) return bad("is not a JSON object");
  const v = value as Record<string, unknown>;
  if (v.protocol !== DEV_CHANNEL_PROTOCOL) return bad(`does not declare protocol ${DEV_CHANNEL_PROTOCOL}`);
  if (typeof v.token !== "string" || !/^[0-9a-fA-F]{16,256}$/.test(v.token)) return bad("has no hex token");
  if (typeof v.pid !== "number" || !Number.isSafeInteger(v.pid) || v.pid <= 0) return bad("has no process id");
  let url: URL;
  try {
    url = new URL(typeof v.url === "string" ? v.url : "");
  } catch {
    return bad("has no valid url");
  }
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname) || url.username !== "" || url.password !== "") {
    return bad("must name a plain http:// loopback url");
  }
  return { ok: true, channel: { url, token: v.token, pid: v.pid } };
}

/**
 * How a channel file is named in answers to the page: relative to the dev server's working
 * directory, never as an absolute path (the page learns nothing about the workspace's location).
 */
export function displayPath(file: string, cwd: string = process.cwd()): string {
  const rel = path.relative(cwd, file);
  return rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? `$${DEV_CHANNEL_ENV}` : rel.split(path.sep).join("/");
}

/** Reads and checks the channel file at `filePath`, and that its session process is alive. */
export async function readChannel(filePath: string): Promise<ChannelLookup> {
  const file = displayPath(filePath);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(filePath, "r");
  } catch {
    return { ok: false, reason: `no a3s-test dev session is running (no channel file at ${file})` };
  }
  let text: string;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, reason: `the session channel ${file} is not a regular file` };
    if (process.platform !== "win32" && (stat.mode & 0o077) !== 0) {
      return { ok: false, reason: `the session channel file ${file} is readable by other users; it must be mode 0600` };
    }
    if (stat.size > MAX_CHANNEL_BYTES) return { ok: false, reason: `the session channel file ${file} is larger than ${MAX_CHANNEL_BYTES} bytes` };
    const buffer = Buffer.alloc(MAX_CHANNEL_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_CHANNEL_BYTES) return { ok: false, reason: `the session channel file ${file} is larger than ${MAX_CHANNEL_BYTES} bytes` };
    text = buffer.subarray(0, bytesRead).toString("utf8");
  } catch {
    return { ok: false, reason: `the session channel file ${file} could not be read` };
  } finally {
    await handle.close().catch(() => undefined);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: `the session channel file ${file} is not JSON` };
  }
  const lookup = parseChannel(parsed, file);
  if (lookup.ok && !processExists(lookup.channel.pid)) {
    return { ok: false, reason: `the a3s-test dev session (pid ${lookup.channel.pid}) is no longer running` };
  }
  return lookup;
}
