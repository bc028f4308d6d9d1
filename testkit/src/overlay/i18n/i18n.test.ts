/** Completeness of the overlay's string tables: same keys, same placeholders, nothing empty. */
import { describe, expect, it } from "vitest";
import { en } from "./en";
import { zhCN } from "./zh-CN";
import { resolveLocale, translator } from "./index";

const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "").sort();
/** Strings that are the same word in both locales on purpose (product names). */
const SAME_IN_BOTH = new Set(["mode.layout"]);

describe("overlay string tables", () => {
  it("zh-CN has exactly the keys of en", () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
  });

  it("every string is non-empty and keeps its placeholders", () => {
    for (const [key, value] of Object.entries(en)) {
      const zh = (zhCN as Record<string, string>)[key] ?? "";
      expect(value.trim(), key).not.toBe("");
      expect(zh.trim(), key).not.toBe("");
      expect(placeholders(zh), key).toEqual(placeholders(value));
    }
  });

  it("zh-CN is translated (only product names stay the same)", () => {
    const same = Object.keys(en).filter((k) => (zhCN as Record<string, string>)[k] === (en as Record<string, string>)[k] && !SAME_IN_BOTH.has(k) && !/^[\d{}\s/×:.-]*$/.test((en as Record<string, string>)[k] ?? ""));
    expect(same).toEqual([]);
  });

  it("fills placeholders and keeps unknown ones visible", () => {
    const t = translator("en");
    expect(t("announce.sent", { count: 3 })).toBe("Findings sent: 3");
    expect(t("announce.sent")).toBe("Findings sent: {count}");
    expect(translator("zh-CN")("editor.instruction")).toBe("修改说明");
  });

  it("auto follows the browser's languages", () => {
    expect(resolveLocale("auto", ["zh-TW", "en"])).toBe("zh-CN");
    expect(resolveLocale("auto", ["de", "en-GB"])).toBe("en");
    expect(resolveLocale("auto", [])).toBe("en");
    expect(resolveLocale("en", ["zh-CN"])).toBe("en");
    expect(resolveLocale(undefined, ["zh"])).toBe("zh-CN");
  });
});
