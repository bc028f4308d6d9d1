/** `charCount` counts characters the way the ledger and JSON Schema `maxLength` do. */
import { describe, expect, it } from "vitest";
import { charCount, missingWords } from "./check";

describe("charCount", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(charCount("")).toBe(0);
    expect(charCount("abc")).toBe(3);
    expect(charCount("付款")).toBe(2);
    expect(charCount("🙂")).toBe(1);
    expect(charCount("a🙂b")).toBe(3);
    expect(charCount("👩‍💻")).toBe([..."👩‍💻"].length);
  });

  it("counts a lone surrogate as one character", () => {
    expect(charCount("\ud83d")).toBe(1);
    expect(charCount("\ude42x")).toBe(2);
    expect(charCount("x\ud83d")).toBe(2);
  });

  it("agrees with the string iterator on every sample", () => {
    for (const s of ["mixed 文字 and 🙂🙃 and \u{1F9D1}\u{200D}\u{1F4BB}", "\ud800\ud800", "\udc00\ud800\udc00"]) {
      expect(charCount(s)).toBe([...s].length);
    }
  });
});

describe("missingWords", () => {
  it("asks a reply for words and a dismiss of a verified repair for a reason, nothing else", () => {
    expect(missingWords("reply", "needs_input", undefined)).toBe("reply");
    expect(missingWords("reply", "needs_input", "  ")).toBe("reply");
    expect(missingWords("reply", "needs_input", "Use ISO dates")).toBeUndefined();
    expect(missingWords("dismiss", "review_ready", "")).toBe("reason");
    expect(missingWords("dismiss", "review_ready", "Still too small")).toBeUndefined();
    expect(missingWords("dismiss", "queued", undefined)).toBeUndefined();
    expect(missingWords("accept", "review_ready", undefined)).toBeUndefined();
    expect(missingWords("reopen", "resolved", undefined)).toBeUndefined();
  });
});
