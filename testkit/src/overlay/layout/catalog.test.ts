/** The built-in component catalog: 90 unique, frozen, bilingual entries. */
import { describe, expect, it } from "vitest";
import { catalogEntry, catalogName, COMPONENT_CATALOG } from "./catalog";

const HAN = /\p{Script=Han}/u;

describe("component catalog", () => {
  it("has exactly 90 entries with unique kebab-case ids", () => {
    expect(COMPONENT_CATALOG).toHaveLength(90);
    const ids = COMPONENT_CATALOG.map((e) => e.id);
    expect(new Set(ids).size).toBe(90);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it("names every entry in English and Simplified Chinese, uniquely", () => {
    for (const e of COMPONENT_CATALOG) {
      expect(e.en.trim(), e.id).not.toBe("");
      expect(e.zhCN, e.id).toMatch(HAN);
      expect(e.en, e.id).not.toMatch(HAN);
    }
    expect(new Set(COMPONENT_CATALOG.map((e) => e.en.toLowerCase())).size).toBe(90);
    expect(new Set(COMPONENT_CATALOG.map((e) => e.zhCN)).size).toBe(90);
  });

  it("has keywords in both languages for every entry", () => {
    for (const e of COMPONENT_CATALOG) {
      expect(e.keywords.en.length, e.id).toBeGreaterThan(0);
      expect(e.keywords.zhCN.length, e.id).toBeGreaterThan(0);
      for (const k of e.keywords.en) expect(k.trim(), e.id).not.toBe("");
      for (const k of e.keywords.zhCN) expect(k, e.id).toMatch(HAN);
    }
  });

  it("covers the well-known types reviewers ask for", () => {
    const wanted = ["button", "text-field", "select", "checkbox", "radio-group", "switch", "slider", "date-picker", "navbar", "breadcrumb", "tabs", "pagination", "card", "modal-dialog", "drawer", "toast", "tooltip", "table", "list", "tree", "accordion", "hero", "footer"];
    for (const id of wanted) expect(catalogEntry(id), id).toBeDefined();
    expect(catalogEntry("button")?.zhCN).toBe("按钮");
    expect(catalogEntry("modal-dialog")?.zhCN).toBe("模态对话框");
    expect(catalogEntry("breadcrumb")?.zhCN).toBe("面包屑");
    expect(catalogEntry("no-such-type")).toBeUndefined();
  });

  it("is frozen all the way down", () => {
    expect(Object.isFrozen(COMPONENT_CATALOG)).toBe(true);
    for (const e of COMPONENT_CATALOG) {
      expect(Object.isFrozen(e)).toBe(true);
      expect(Object.isFrozen(e.keywords)).toBe(true);
      expect(Object.isFrozen(e.keywords.en)).toBe(true);
      expect(Object.isFrozen(e.keywords.zhCN)).toBe(true);
    }
    expect(() => {
      (COMPONENT_CATALOG as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it("shows names in the requested locale", () => {
    const e = catalogEntry("date-picker");
    if (e === undefined) throw new Error("missing date-picker");
    expect(catalogName(e, "en")).toBe("Date picker");
    expect(catalogName(e, "zh-CN")).toBe("日期选择器");
  });
});
