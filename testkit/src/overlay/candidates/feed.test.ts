/** The candidates feed is re-read as untrusted input, and fetched same-origin only, never rejecting. */
import { describe, expect, it } from "vitest";
import { MAX_CANDIDATES, fetchCandidates, readCandidates } from "./feed";
import { sampleFeed } from "./sample.testing";


describe("readCandidates", () => {
  it("reads a well-formed feed back as it was", () => {
    expect(readCandidates(sampleFeed())).toEqual(sampleFeed());
  });

  it("refuses unknown fields, a verdict, bad kinds, long texts and too many items", () => {
    const bad: Array<(f: ReturnType<typeof sampleFeed>) => unknown> = [
      (f) => ({ ...f, protocol: "a3s.test.run-candidates/2" }),
      (f) => ({ ...f, verdict: "failed" }),
      (f) => ({ ...f, candidates: [{ ...f.candidates[0], action: "click" }] }),
      (f) => ({ ...f, candidates: [{ ...f.candidates[0], status: "passed" }] }),
      (f) => ({ ...f, candidates: [{ ...f.candidates[0], code: "<b>" }] }),
      (f) => ({ ...f, candidates: [{ ...f.candidates[0], message: "x".repeat(2001) }] }),
      (f) => ({ ...f, candidates: [{ ...f.candidates[0], locator: { kind: "xpath", value: "//a" } }] }),
      (f) => ({ ...f, candidates: [{ ...f.candidates[0], locator: { kind: "css", value: "a", mode: "exact" } }] }),
      (f) => ({ ...f, candidates: [f.candidates[0], f.candidates[0]] }),
      (f) => ({ ...f, candidates: Array.from({ length: MAX_CANDIDATES + 1 }, (_, i) => ({ ...f.candidates[0], id: `s/${i}` })) }),
      (f) => ({ ...f, omitted: -1 }),
      () => null,
      () => [],
    ];
    for (const change of bad) expect(() => readCandidates(change(sampleFeed()))).toThrow();
  });
});

describe("fetchCandidates", () => {
  const answer = (status: number, body: unknown) => (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

  it("asks with the page's address and reads the answer", async () => {
    let asked = "";
    const fetchFn = (async (url: string) => {
      asked = url;
      return new Response(JSON.stringify(sampleFeed()), { status: 200 });
    }) as unknown as typeof fetch;
    const got = await fetchCandidates("/__a3s-test/repairs/candidates", "http://127.0.0.1:4000/?a=1", fetchFn);
    expect(got).toEqual({ feed: sampleFeed() });
    expect(new URL(asked).searchParams.get("page")).toBe("http://127.0.0.1:4000/?a=1");
  });

  it("says why instead of rejecting: another origin, an error answer, a refused feed, no answer", async () => {
    expect(await fetchCandidates("http://evil.test/c", "http://127.0.0.1:4000/", answer(200, sampleFeed()))).toHaveProperty("error");
    const refused = await fetchCandidates("/c", "http://127.0.0.1:4000/", answer(500, { error: { code: "test.session.repair_endpoint_candidates_unreadable", message: "x" } }));
    expect(refused).toEqual({ error: "the candidates endpoint answered 500 (test.session.repair_endpoint_candidates_unreadable)" });
    expect(await fetchCandidates("/c", "http://127.0.0.1:4000/", answer(200, { ...sampleFeed(), verdict: "x" }))).toHaveProperty("error");
    const down = (async () => {
      throw new TypeError("network");
    }) as unknown as typeof fetch;
    expect(await fetchCandidates("/c", "http://127.0.0.1:4000/", down)).toEqual({ error: "the candidates endpoint did not answer" });
  });
});
