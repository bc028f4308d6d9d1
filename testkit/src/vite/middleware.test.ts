// @vitest-environment node
import { createServer, type Server } from "node:http";
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { endpointTransport } from "../repair/endpoint";
import { fetchCandidates } from "../overlay/candidates/feed";
import { sampleFeed } from "../overlay/candidates/sample.testing";
import { createRepairMiddleware, MAX_PAGE_URL_BYTES } from "./middleware";
import { closeServer, listen, rawRequest, startFakeChannel, writeChannelFile, type FakeChannel } from "./loopback.testing";

const TOKEN = "00112233445566778899aabbccddeeff";
const DOC = JSON.stringify({ protocol: "a3s.test.repair/1", repairs: [{ id: "finding-1" }] });

let fake: FakeChannel;
let app: Server;
let origin: string;
let endpoint: string;
let channelFile: string;
let forwardTimeoutMs: number;

function channel(overrides: Record<string, unknown> = {}): unknown {
  return { protocol: "a3s.test.dev-channel/1", url: fake.url, token: TOKEN, pid: process.pid, ...overrides };
}

function post(body: string | Buffer = DOC, headers: Record<string, string> = {}) {
  return rawRequest(endpoint, "POST", { origin, "content-type": "application/json", ...headers }, body);
}

function codeOf(json: unknown): unknown {
  return (json as { error?: { code?: unknown } } | undefined)?.error?.code;
}

beforeEach(async () => {
  fake = await startFakeChannel();
  channelFile = writeChannelFile(channel());
  forwardTimeoutMs = 5_000;
  const middleware = createRepairMiddleware({
    endpoint: "/__a3s-test/repairs",
    allowedOrigins: () => new Set([origin]),
    channelFile: () => channelFile,
    get forwardTimeoutMs() {
      return forwardTimeoutMs;
    },
  });
  app = createServer((req, res) =>
    middleware(req, res, () => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("next");
    }),
  );
  const port = await listen(app);
  origin = `http://127.0.0.1:${port}`;
  endpoint = `${origin}/__a3s-test/repairs`;
});

afterEach(async () => {
  await closeServer(app);
  await fake.close();
});

describe("forwarding to the session", () => {
  it("posts the exact body with the session's bearer token and passes the answer through", async () => {
    const answer = await post();
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ protocol: "a3s.test.repair/1", accepted: ["finding-1"], duplicates: [], held: [] });
    expect(fake.received).toHaveLength(1);
    const got = fake.received[0]!;
    expect(got.body).toBe(DOC);
    expect(got.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(got.headers["content-type"]).toBe("application/json");
  });

  it("never forwards the page's cookies or other headers", async () => {
    await post(DOC, { cookie: "sid=secret", "x-extra": "1" });
    const headers = fake.received[0]!.headers;
    expect(headers.cookie).toBeUndefined();
    expect(headers["x-extra"]).toBeUndefined();
    expect(headers.origin).toBeUndefined();
  });

  it("passes a refusal of the session through with its status", async () => {
    fake.answer = { status: 422, body: JSON.stringify({ error: { code: "test.session.repair_invalid_document", message: "bad" } }) };
    const answer = await post();
    expect(answer.status).toBe(422);
    expect(codeOf(answer.json)).toBe("test.session.repair_invalid_document");
  });

  it("answers 502 when the session's answer is not JSON", async () => {
    fake.answer = { status: 200, body: "<html>" };
    const answer = await post();
    expect(answer.status).toBe(502);
    expect(codeOf(answer.json)).toBe("test.session.dev_unavailable");
  });

  it("leaves other paths to the next middleware", async () => {
    const answer = await rawRequest(`${origin}/src/main.tsx`, "GET", {});
    expect(answer.status).toBe(404);
    expect(fake.received).toHaveLength(0);
  });

  it("matches the endpoint path with a query string", async () => {
    const answer = await rawRequest(`${endpoint}?x=1`, "POST", { origin, "content-type": "application/json" }, DOC);
    expect(answer.status).toBe(200);
  });
});

describe("refusals before anything is forwarded", () => {
  it.each([
    ["GET", 405, "test.session.repair_endpoint_method"],
    ["PUT", 405, "test.session.repair_endpoint_method"],
  ])("%s → %i", async (method, status, code) => {
    const answer = await rawRequest(endpoint, method, { origin, "content-type": "application/json" }, method === "GET" ? undefined : DOC);
    expect(answer.status).toBe(status);
    expect(answer.headers.allow).toBe("POST");
    expect(codeOf(answer.json)).toBe(code);
  });

  it("refuses another origin, a missing origin and a cross-site fetch", async () => {
    const other = await post(DOC, { origin: "http://evil.example:5173" });
    expect([other.status, codeOf(other.json)]).toEqual([403, "test.session.repair_endpoint_origin"]);
    const none = await rawRequest(endpoint, "POST", { "content-type": "application/json" }, DOC);
    expect([none.status, codeOf(none.json)]).toEqual([403, "test.session.repair_endpoint_origin"]);
    const site = await post(DOC, { "sec-fetch-site": "cross-site" });
    expect([site.status, codeOf(site.json)]).toEqual([403, "test.session.repair_endpoint_origin"]);
    const same = await post(DOC, { "sec-fetch-site": "same-origin" });
    expect(same.status).toBe(200);
    expect(fake.received).toHaveLength(1);
  });

  it("refuses a body that is not declared JSON", async () => {
    for (const type of ["text/plain", "application/json; charset=latin1", "application/jsonx"]) {
      const answer = await post(DOC, { "content-type": type });
      expect([type, answer.status, codeOf(answer.json)]).toEqual([type, 415, "test.session.repair_endpoint_content_type"]);
    }
    expect((await post(DOC, { "content-type": "Application/JSON; charset=UTF-8" })).status).toBe(200);
  });

  it("refuses more than 1 MiB, declared or streamed", async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const declared = await post(big);
    expect([declared.status, codeOf(declared.json)]).toEqual([413, "test.session.repair_endpoint_too_large"]);
    const streamed = await post(big, { "transfer-encoding": "chunked" });
    expect([streamed.status, codeOf(streamed.json)]).toEqual([413, "test.session.repair_endpoint_too_large"]);
    expect(fake.received).toHaveLength(0);
  });

  it("refuses a body that is not JSON, and another protocol", async () => {
    const malformed = await post("{not json");
    expect([malformed.status, codeOf(malformed.json)]).toEqual([400, "test.session.repair_malformed_document"]);
    const latin = await post(Buffer.from([0x7b, 0xff, 0x7d]));
    expect([latin.status, codeOf(latin.json)]).toEqual([400, "test.session.repair_malformed_document"]);
    for (const doc of [{ protocol: "a3s.test.repair/2", repairs: [] }, { repairs: [] }, ["a3s.test.repair/1"]]) {
      const answer = await post(JSON.stringify(doc));
      expect([answer.status, codeOf(answer.json)]).toEqual([400, "test.session.repair_unsupported_protocol"]);
    }
    expect(fake.received).toHaveLength(0);
  });
});

describe("no session: 503 and the page keeps its queue", () => {
  async function expectUnavailable(fragment: string): Promise<void> {
    const answer = await post();
    expect(answer.status).toBe(503);
    expect(codeOf(answer.json)).toBe("test.session.dev_unavailable");
    expect((answer.json as { error: { message: string } }).error.message).toContain(fragment);
  }

  it("without a channel file", async () => {
    channelFile = `${channelFile}.missing`;
    await expectUnavailable("no channel file");
  });

  it("when the session's channel refuses connections", async () => {
    await fake.close();
    await expectUnavailable("not listening");
  });

  it("when the session's process is gone", async () => {
    const child = spawnSync(process.execPath, ["-e", ""], { timeout: 10_000 });
    channelFile = writeChannelFile(channel({ pid: child.pid }));
    await expectUnavailable(`pid ${child.pid}`);
    expect(fake.received).toHaveLength(0);
  });

  it("when the channel file is readable by others", async () => {
    if (process.platform === "win32") return;
    channelFile = writeChannelFile(channel(), 0o644);
    await expectUnavailable("mode 0600");
  });

  it("when the channel file is not a loopback channel", async () => {
    channelFile = writeChannelFile(channel({ url: "http://example.com/repairs" }));
    await expectUnavailable("loopback");
    channelFile = writeChannelFile(channel({ token: "" }));
    await expectUnavailable("token");
    channelFile = writeChannelFile("{");
    await expectUnavailable("not JSON");
  });

  it("when the session does not answer in time", async () => {
    fake.hang = true;
    forwardTimeoutMs = 200;
    await expectUnavailable("did not answer within 200 ms");
  });

  it("the Test Kit's transport reports the 503 as a failed POST", async () => {
    channelFile = `${channelFile}.missing`;
    const answer = await endpointTransport(endpoint, ((url: string, init: RequestInit) =>
      fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), origin } })) as typeof fetch)(JSON.parse(DOC));
    expect(answer.ok).toBe(false);
    expect(answer.status).toBe(503);
    expect(codeOf(answer.body)).toBe("test.session.dev_unavailable");
  });
});

describe("the candidates read (GET <endpoint>/candidates?page=URL)", () => {
  const feed = (): string => JSON.stringify({ ...sampleFeed(), page: `${origin}/checkout` });
  const read = (page: string | undefined, headers: Record<string, string> = {}, method = "GET") =>
    rawRequest(`${endpoint}/candidates${page === undefined ? "" : `?page=${encodeURIComponent(page)}`}`, method, headers);

  beforeEach(() => {
    fake.answer = { status: 200, body: "" };
  });

  it("asks the session's channel with its bearer token and passes the feed through", async () => {
    fake.answer = { status: 200, body: feed() };
    const answer = await read(`${origin}/checkout?step=2#pay`, { "sec-fetch-site": "same-origin", cookie: "sid=secret" });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(JSON.parse(feed()));
    expect(fake.received).toHaveLength(1);
    const got = fake.received[0]!;
    expect(got.method).toBe("GET");
    const asked = new URL(got.url, "http://channel.invalid");
    expect(asked.pathname).toBe("/repairs/candidates");
    expect([...asked.searchParams.entries()]).toEqual([["page", `${origin}/checkout?step=2#pay`]]);
    expect(got.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(got.headers.cookie).toBeUndefined();
    expect(got.headers["sec-fetch-site"]).toBeUndefined();
    expect(got.body).toBe("");
  });

  it("takes the page's own Origin when the browser sends one", async () => {
    fake.answer = { status: 200, body: feed() };
    expect((await read(`${origin}/checkout`, { origin })).status).toBe(200);
  });

  it("passes the session's refusal through with its status and code", async () => {
    fake.answer = { status: 500, body: JSON.stringify({ error: { code: "test.session.repair_endpoint_candidates_unreadable", message: "bad" } }) };
    const answer = await read(`${origin}/`);
    expect([answer.status, codeOf(answer.json)]).toEqual([500, "test.session.repair_endpoint_candidates_unreadable"]);
  });

  it("refuses another origin, a cross-site fetch and a page of another server before asking the session", async () => {
    const other = await read(`${origin}/`, { origin: "http://evil.example:5173" });
    expect([other.status, codeOf(other.json)]).toEqual([403, "test.session.repair_endpoint_origin"]);
    const site = await read(`${origin}/`, { "sec-fetch-site": "cross-site" });
    expect([site.status, codeOf(site.json)]).toEqual([403, "test.session.repair_endpoint_origin"]);
    const page = await read("http://evil.example:5173/checkout");
    expect([page.status, codeOf(page.json)]).toEqual([403, "test.session.repair_endpoint_origin"]);
    expect(fake.received).toHaveLength(0);
  });

  it("refuses a missing, repeated, non-http or oversized page", async () => {
    const cases = [
      `${endpoint}/candidates`,
      `${endpoint}/candidates?page=`,
      `${endpoint}/candidates?page=${encodeURIComponent(`${origin}/a`)}&page=${encodeURIComponent(`${origin}/b`)}`,
      `${endpoint}/candidates?page=${encodeURIComponent("javascript:alert(1)")}`,
      `${endpoint}/candidates?page=not%20a%20url`,
      `${endpoint}/candidates?page=${encodeURIComponent(`${origin}/${"a".repeat(MAX_PAGE_URL_BYTES)}`)}`,
    ];
    for (const url of cases) {
      const answer = await rawRequest(url, "GET", {});
      expect([url.slice(0, 120), answer.status, codeOf(answer.json)]).toEqual([url.slice(0, 120), 400, "test.session.repair_endpoint_bad_request"]);
    }
    expect(fake.received).toHaveLength(0);
  });

  it("takes GET only", async () => {
    const answer = await read(`${origin}/`, { origin, "content-type": "application/json" }, "POST");
    expect([answer.status, answer.headers.allow, codeOf(answer.json)]).toEqual([405, "GET", "test.session.repair_endpoint_method"]);
    expect(fake.received).toHaveLength(0);
  });

  it("answers 503 without a session, and when the session does not answer in time", async () => {
    const saved = channelFile;
    channelFile = `${channelFile}.missing`;
    const none = await read(`${origin}/`);
    expect([none.status, codeOf(none.json)]).toEqual([503, "test.session.dev_unavailable"]);
    channelFile = saved;
    fake.hang = true;
    forwardTimeoutMs = 200;
    const late = await read(`${origin}/`);
    expect([late.status, codeOf(late.json)]).toEqual([503, "test.session.dev_unavailable"]);
    expect((late.json as { error: { message: string } }).error.message).toContain("did not answer within 200 ms");
  });

  it("answers 502 when the session's answer is larger than the bound or not JSON", async () => {
    fake.answer = { status: 200, body: JSON.stringify({ pad: "x".repeat(1024 * 1024) }) };
    const big = await read(`${origin}/`);
    expect([big.status, codeOf(big.json)]).toEqual([502, "test.session.dev_unavailable"]);
    fake.answer = { status: 200, body: "<html>" };
    const html = await read(`${origin}/`);
    expect([html.status, codeOf(html.json)]).toEqual([502, "test.session.dev_unavailable"]);
  });

  it("is what the overlay's reader reads", async () => {
    fake.answer = { status: 200, body: feed() };
    const got = await fetchCandidates("/__a3s-test/repairs/candidates", `${origin}/checkout`, fetch);
    expect(got).toEqual({ feed: JSON.parse(feed()) });
    fake.answer = { status: 500, body: JSON.stringify({ error: { code: "test.session.repair_endpoint_candidates_unreadable", message: "bad" } }) };
    expect(await fetchCandidates("/__a3s-test/repairs/candidates", `${origin}/checkout`, fetch)).toEqual({
      error: "the candidates endpoint answered 500 (test.session.repair_endpoint_candidates_unreadable)",
    });
  });
});
