// @vitest-environment node
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type ViteDevServer } from "vite";
import { afterEach, describe, expect, it } from "vitest";
import { a3sTest } from "./plugin";
import { channelPath, DEV_CHANNEL_ENV, displayPath } from "./channel";
import { serverOrigins } from "./origins";
import { rawRequest, startFakeChannel, writeChannelFile, type FakeChannel } from "./loopback.testing";

const DOC = JSON.stringify({ protocol: "a3s.test.repair/1", actions: [] });
let server: ViteDevServer | undefined;
let fake: FakeChannel | undefined;

afterEach(async () => {
  await server?.close();
  await fake?.close();
  server = undefined;
  fake = undefined;
});

async function startVite(plugin: ReturnType<typeof a3sTest>): Promise<{ origin: string; server: ViteDevServer }> {
  const root = mkdtempSync(join(tmpdir(), "a3s-vite-root-"));
  writeFileSync(join(root, "index.html"), "<!doctype html><title>t</title>");
  server = await createServer({ root, configFile: false, logLevel: "silent", plugins: [plugin], server: { host: "127.0.0.1", port: 0, strictPort: false, ws: false } });
  await server.listen();
  const local = server.resolvedUrls?.local[0];
  if (local === undefined) throw new Error("vite printed no local url");
  return { origin: new URL(local).origin, server };
}

describe("a3sTest() in a real Vite dev server", () => {
  it("forwards a same-origin POST to the session and refuses another origin", async () => {
    fake = await startFakeChannel();
    const file = writeChannelFile({ protocol: "a3s.test.dev-channel/1", url: fake.url, token: "ab".repeat(16), pid: process.pid });
    const { origin } = await startVite(a3sTest({ channelFile: file }));
    const url = `${origin}/__a3s-test/repairs`;
    const ok = await rawRequest(url, "POST", { origin, "content-type": "application/json" }, DOC);
    expect(ok.status).toBe(200);
    expect(fake.received.map((r) => r.body)).toEqual([DOC]);
    const port = new URL(origin).port;
    const alias = await rawRequest(url, "POST", { origin: `http://localhost:${port}`, "content-type": "application/json" }, DOC);
    expect(alias.status).toBe(200);
    const rebound = await rawRequest(url, "POST", { origin: `http://attacker.example:${port}`, host: `attacker.example:${port}`, "content-type": "application/json" }, DOC);
    expect(rebound.status).toBe(403);
    expect(fake.received).toHaveLength(2);
  });

  it("serves the page as usual and answers 503 without a session", async () => {
    const { origin } = await startVite(a3sTest({ endpoint: "/api/repairs", channelFile: join(tmpdir(), "a3s-no-such-channel.json") }));
    const page = await rawRequest(`${origin}/`, "GET", {});
    expect(page.status).toBe(200);
    const answer = await rawRequest(`${origin}/api/repairs`, "POST", { origin, "content-type": "application/json" }, DOC);
    expect(answer.status).toBe(503);
    expect((answer.json as { error: { code: string } }).error.code).toBe("test.session.dev_unavailable");
  });

  it("is a dev-server plugin only and checks its endpoint", () => {
    expect(a3sTest().apply).toBe("serve");
    expect(() => a3sTest({ endpoint: "__a3s" })).toThrow(/absolute URL path/);
    expect(() => a3sTest({ endpoint: "//evil.example/x" })).toThrow(/absolute URL path/);
  });
});

describe("channelPath", () => {
  it("takes the handed-over path, else the default session's file under the root", () => {
    expect(channelPath("/app", {})).toBe(join("/app", ".a3s-test", "dev", "dev", "channel.json"));
    expect(channelPath("/app", { [DEV_CHANNEL_ENV]: "/run/s/channel.json" })).toBe("/run/s/channel.json");
    expect(channelPath("/app", { [DEV_CHANNEL_ENV]: ".a3s-test/dev/x/channel.json" })).toBe(join("/app", ".a3s-test/dev/x/channel.json"));
  });
});

describe("serverOrigins", () => {
  it("adds the loopback names of a loopback or wildcard listener, never the request's Host", () => {
    const base = { resolvedUrls: null, configuredOrigin: undefined, https: false, extra: [] };
    expect([...serverOrigins({ ...base, address: { address: "127.0.0.1", family: "IPv4", port: 5173 } })].sort()).toEqual([
      "http://127.0.0.1:5173",
      "http://[::1]:5173",
      "http://localhost:5173",
    ]);
    const lan = serverOrigins({ ...base, address: { address: "192.168.1.5", family: "IPv4", port: 80 }, extra: ["https://tunnel.example"] });
    expect([...lan].sort()).toEqual(["http://192.168.1.5", "https://tunnel.example"]);
    const wild = serverOrigins({ ...base, https: true, address: { address: "::", family: "IPv6", port: 8443 }, resolvedUrls: { local: ["https://localhost:8443/"], network: ["https://10.0.0.2:8443/"] } });
    expect(wild.has("https://10.0.0.2:8443")).toBe(true);
    expect(wild.has("https://[::]:8443")).toBe(false);
  });
});

describe("displayPath", () => {
  it("names the channel file relative to the dev server, never absolutely", () => {
    expect(displayPath(join("/app", ".a3s-test", "dev", "dev", "channel.json"), "/app")).toBe(".a3s-test/dev/dev/channel.json");
    expect(displayPath("/run/user/1000/channel.json", "/app")).toBe("$A3S_TEST_DEV_CHANNEL");
  });
});
