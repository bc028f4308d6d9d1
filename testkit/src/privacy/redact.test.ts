import { describe, expect, it } from "vitest";
import { isSecretControl, isSecretKey, RedactionRules, sanitizeFacts, sanitizeUrl, scrubSecrets } from "./redact";

describe("privacy", () => {
  it("recognizes secret-looking keys", () => {
    for (const k of ["password", "apiKey", "api_key", "accessToken", "csrf", "sessionId", "Authorization", "cardNumber"]) expect(isSecretKey(k)).toBe(true);
    for (const k of ["name", "email", "count", "title", "author", "authorName"]) expect(isSecretKey(k)).toBe(false);
  });
  it("scrubs token-looking values", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijk";
    expect(scrubSecrets(`token ${jwt} end`)).toBe("token [redacted] end");
    expect(scrubSecrets("Authorization: Bearer abcdefghijklmnop1234")).toBe("Authorization: [redacted]");
    expect(scrubSecrets("key sk-abcdefghijklmnopqrstuvwx")).toBe("key [redacted]");
    expect(scrubSecrets("plain text")).toBe("plain text");
  });
  it("drops secret query values and credentials from URLs", () => {
    expect(sanitizeUrl("https://u:p@example.com/a?token=abc&page=2#x")).toBe("https://example.com/a?token=%5Bredacted%5D&page=2#x");
    expect(sanitizeUrl("https://example.com/a?page=2")).toBe("https://example.com/a?page=2");
  });
  it("sanitizes facts: secret keys dropped, depth and size bounded", () => {
    const deep = { a: { b: { c: { d: { e: 1 } } } } };
    expect(sanitizeFacts({ user: "ada", password: "x", nested: { apiToken: "y", ok: true }, n: Infinity, deep }, 64)).toEqual({
      user: "ada",
      nested: { ok: true },
      n: null,
      deep: { a: { b: { c: null } } },
    });
    expect(sanitizeFacts("nope", 64)).toEqual({});
  });
  it("treats password, hidden and one-time-code controls as secret", () => {
    const make = (html: string) => {
      const d = document.createElement("div");
      d.innerHTML = html;
      return d.firstElementChild as Element;
    };
    expect(isSecretControl(make('<input type="password">'))).toBe(true);
    expect(isSecretControl(make('<input type="hidden">'))).toBe(true);
    expect(isSecretControl(make('<input autocomplete="one-time-code">'))).toBe(true);
    expect(isSecretControl(make('<input name="api_token">'))).toBe(true);
    expect(isSecretControl(make('<input type="email">'))).toBe(false);
    // Every payment-card field and one-time code, as A3S Test's own rule (driver/src/privacy.rs).
    for (const token of ["cc-number", "cc-csc", "cc-exp", "cc-exp-month", "cc-name", "CC-NUMBER", "billing cc-number", "current-password", "new-password"]) {
      expect(isSecretControl(make(`<input autocomplete="${token}">`)), token).toBe(true);
    }
    expect(isSecretControl(make('<select autocomplete="cc-exp-year"><option>30</option></select>'))).toBe(true);
    expect(isSecretControl(make('<input autocomplete="name">'))).toBe(false);
    expect(isSecretControl(make('<input autocomplete="acc-number">'))).toBe(false);
  });
  it("matches redact selectors across shadow roots", () => {
    document.body.innerHTML = `<div class="secret"><span id="inner">x</span></div><x-host></x-host>`;
    const host = document.querySelector("x-host") as Element;
    host.attachShadow({ mode: "open" }).innerHTML = "<b>y</b>";
    const rules = new RedactionRules([".secret", "x-host"], document);
    expect(rules.covers(document.getElementById("inner") as Element)).toBe(true);
    expect(rules.covers(host.shadowRoot?.querySelector("b") as Element)).toBe(true);
    expect(() => new RedactionRules(["::nope("], document)).toThrow();
  });
});
