/** Bilingual catalog search and the verbatim rule for project component names. */
import { describe, expect, it } from "vitest";
import { COMPONENT_CATALOG, type CatalogEntry } from "./catalog";
import { componentTypeOf, normalizeQuery, searchCatalog } from "./search";

const ids = (query: string, locale: "en" | "zh-CN" = "en") => searchCatalog(query, locale).map((h) => h.entry.id);
const entry = (id: string, en: string, zhCN: string, kwEn: string[] = [], kwZh: string[] = []): CatalogEntry => ({ id, en, zhCN, keywords: { en: kwEn, zhCN: kwZh } });

describe("searchCatalog", () => {
  it("finds Chinese names, exact before prefix before substring", () => {
    const hits = searchCatalog("按钮", "zh-CN");
    expect(hits[0]).toMatchObject({ entry: { id: "button" }, level: "exact" });
    expect(hits[1]).toMatchObject({ entry: { id: "button-group" }, level: "prefix" });
    const rest = hits.slice(2).map((h) => h.entry.id);
    expect(rest).toEqual(expect.arrayContaining(["icon-button", "toggle-button", "radio-group"]));
    expect(hits.slice(2).every((h) => h.level === "substring")).toBe(true);
  });

  it("is case-insensitive and folds full-width letters", () => {
    expect(ids("BUTTON")[0]).toBe("button");
    expect(ids("ＢＵＴＴＯＮ")[0]).toBe("button");
    expect(ids("  Date   Picker ")[0]).toBe("date-picker");
  });

  it("searches both languages whatever the display locale", () => {
    expect(ids("modal", "zh-CN")[0]).toBe("modal-dialog");
    expect(ids("弹窗", "en")[0]).toBe("modal-dialog");
    expect(ids("面包屑", "en")).toEqual(["breadcrumb"]);
    expect(ids("breadcrumb", "zh-CN")).toEqual(["breadcrumb"]);
  });

  it("matches keywords and ids as well as names", () => {
    expect(ids("snackbar")).toEqual(["toast"]);
    expect(ids("走马灯", "zh-CN")).toEqual(["carousel"]);
    expect(ids("date-range-picker")[0]).toBe("date-range-picker");
  });

  it("ranks a later-word prefix above a plain substring", () => {
    const hits = searchCatalog("dialog", "en");
    expect(hits[0]).toMatchObject({ entry: { id: "modal-dialog" }, level: "exact" }); // keyword "dialog"
    expect(hits.find((h) => h.entry.id === "confirm-dialog")?.level).toBe("word-prefix");
  });

  it("orders by level, then names over keywords, then catalog order", () => {
    const catalog = [
      entry("stable", "Stable", "稳定"),
      entry("keyword-tab", "Strip", "条", ["tab"]),
      entry("table", "Table", "表格"),
      entry("tab", "Tab", "页签"),
    ];
    const hits = searchCatalog("tab", "en", catalog);
    expect(hits.map((h) => [h.entry.id, h.level])).toEqual([
      ["tab", "exact"],
      ["keyword-tab", "exact"],
      ["table", "prefix"],
      ["stable", "substring"],
    ]);
  });

  it("prefers the display locale's names on a tie", () => {
    const both = [entry("x", "Panel", "Pane"), entry("y", "Pane", "面板")];
    expect(searchCatalog("pane", "en", both).map((h) => h.entry.id)).toEqual(["y", "x"]);
    expect(searchCatalog("pane", "zh-CN", both).map((h) => h.entry.id)).toEqual(["x", "y"]);
  });

  it("lists the whole catalog for an empty query and nothing for a miss", () => {
    expect(ids("   ")).toEqual(COMPONENT_CATALOG.map((e) => e.id));
    expect(ids("zzzz-not-a-component")).toEqual([]);
  });

  it("normalizes queries without changing their letters", () => {
    expect(normalizeQuery("  Ｍodal\tDialog ")).toBe("modal dialog");
  });
});

describe("componentTypeOf", () => {
  it("stores a catalog pick as its id", () => {
    expect(componentTypeOf({ kind: "catalog", id: "date-picker" })).toBe("date-picker");
  });

  it("keeps a project component name exactly as typed", () => {
    for (const name of ["AcmeHeroBanner", "  Acme Promo Strip v2 ", "结算摘要卡片", "Button", "<PromoStrip variant=\"wide\"/>"]) {
      expect(componentTypeOf({ kind: "project", name })).toBe(name);
    }
  });
});
