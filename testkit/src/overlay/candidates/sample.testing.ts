/** A well-formed candidates feed for the tests: one failed scenario whose step named the pay button. */
import { CANDIDATES_PROTOCOL } from "./feed";

/** A fresh copy each call. */
export function sampleFeed() {
  return {
    protocol: CANDIDATES_PROTOCOL,
    run_id: "20260101T120000Z-3fa9c2",
    started_at: "2026-01-01T12:00:00Z",
    page: "http://127.0.0.1:4000/",
    candidates: [
      {
        id: "shop/pay",
        name: "pay shows paid",
        status: "failed",
        code: "test.assert.rendered_text_mismatch",
        message: 'expected rendered text "Paid", found "Pay $42.00"',
        target: 'role("button", "Pay")',
        locator: { kind: "role", role: "button", name: "Pay", mode: "contains" },
        location: "suites/shop.acl:5:5",
        page_url: "http://127.0.0.1:4000/",
      },
    ],
    omitted: 0,
  };
}
