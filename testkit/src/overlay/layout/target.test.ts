/** Builders and rectangle rules of the Layout Mode targets, and their fit with the repair queue. */
import { describe, expect, it } from "vitest";
import { RepairQueue } from "../../repair/queue";
import { createRepairStore } from "../../repair/storage";
import { repairContext } from "../../testing/repairContext";
import { buildPlacement, buildRearrange, checkRect, MAX_LAYOUT_TEXT_CHARS, type LayoutResult } from "./target";

const VIEWPORT = { width: 1200, height: 800 };
const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const codes = <T>(r: LayoutResult<T>) => (r.ok ? [] : r.issues.map((i) => `${i.field}:${i.code}`));

describe("buildPlacement", () => {
  it("builds a placement without a purpose when none is given or it is blank", () => {
    const destination = rect(10, 20, 300, 120);
    const r = buildPlacement({ componentType: "date-picker", componentSource: "catalog", canvas: "wireframe", destination }, VIEWPORT);
    expect(r).toEqual({ ok: true, value: { mode: "placement", componentType: "date-picker", componentSource: "catalog", canvas: "wireframe", destination } });
    if (r.ok) expect(r.value.destination).not.toBe(destination);
    for (const purpose of ["", "  \t"]) {
      const blank = buildPlacement({ componentType: "date-picker", componentSource: "catalog", canvas: "page", purpose, destination }, VIEWPORT);
      expect(blank.ok && "purpose" in blank.value).toBe(false);
    }
  });

  it("tells a project component from the catalog entry of the same name", () => {
    const destination = rect(0, 0, 10, 10);
    const project = buildPlacement({ componentType: "button", componentSource: "project", canvas: "page", destination }, VIEWPORT);
    const catalog = buildPlacement({ componentType: "button", componentSource: "catalog", canvas: "page", destination }, VIEWPORT);
    expect(project.ok && project.value.componentSource).toBe("project");
    expect(catalog.ok && catalog.value.componentSource).toBe("catalog");
  });

  it("keeps the component type and purpose verbatim", () => {
    const r = buildPlacement({ componentType: "  AcmePromoStrip ", componentSource: "project", canvas: "page", purpose: "Checkout: 结算 ", destination: rect(0, 0, 1200, 800) }, VIEWPORT);
    expect(r.ok && r.value).toMatchObject({ componentType: "  AcmePromoStrip ", purpose: "Checkout: 结算 " });
  });

  it("refuses a missing component type and over-long text", () => {
    expect(codes(buildPlacement({ componentType: " \t", componentSource: "project", canvas: "page", destination: rect(0, 0, 10, 10) }, VIEWPORT))).toEqual(["componentType:component_type_missing"]);
    const long = "x".repeat(MAX_LAYOUT_TEXT_CHARS + 1);
    expect(codes(buildPlacement({ componentType: long, componentSource: "project", canvas: "page", purpose: long, destination: rect(0, 0, 10, 10) }, VIEWPORT))).toEqual(["componentType:text_too_long", "purpose:text_too_long"]);
  });

  it("refuses an unknown canvas", () => {
    const canvas = "print" as unknown as "page";
    expect(codes(buildPlacement({ componentType: "card", componentSource: "catalog", canvas, destination: rect(0, 0, 10, 10) }, VIEWPORT))).toEqual(["canvas:canvas_invalid"]);
  });

  it("reports every problem at once", () => {
    expect(codes(buildPlacement({ componentType: "", componentSource: "project", canvas: "page", destination: rect(0, 0, 0, 10) }, VIEWPORT))).toEqual(["componentType:component_type_missing", "destination:rect_empty"]);
  });
});

describe("destination rules", () => {
  const check = (r: ReturnType<typeof rect>) => checkRect(r, VIEWPORT, "destination", "contain")?.code;

  it("accepts rects inside the viewport, edges included", () => {
    expect(check(rect(0, 0, 1200, 800))).toBeUndefined();
    expect(check(rect(0.25, 10.5, 99.5, 0.5))).toBeUndefined();
    expect(check(rect(-0.4, 0, 1200.8, 800.4))).toBeUndefined();
  });

  it("refuses non-finite numbers", () => {
    expect(check(rect(Number.NaN, 0, 10, 10))).toBe("rect_not_finite");
    expect(check(rect(0, 0, Number.POSITIVE_INFINITY, 10))).toBe("rect_not_finite");
    expect(checkRect(rect(0, 0, 10, 10), { width: Number.NaN, height: 800 }, "destination", "contain")?.code).toBe("rect_not_finite");
    expect(check({ x: "1", y: 0, width: 10, height: 10 } as unknown as ReturnType<typeof rect>)).toBe("rect_not_finite");
  });

  it("refuses empty and negative sizes", () => {
    expect(check(rect(5, 5, 0, 10))).toBe("rect_empty");
    expect(check(rect(5, 5, 10, -1))).toBe("rect_empty");
  });

  it("refuses a destination that leaves the viewport, beyond half a pixel", () => {
    expect(check(rect(-1, 0, 10, 10))).toBe("rect_outside_viewport");
    expect(check(rect(1100, 0, 100.6, 10))).toBe("rect_outside_viewport");
    expect(check(rect(0, 790, 10, 11))).toBe("rect_outside_viewport");
    expect(check(rect(0, 900, 10, 10))).toBe("rect_outside_viewport");
  });
});

describe("buildRearrange", () => {
  it("builds a rearrange with the current node", () => {
    const r = buildRearrange({ originalRegion: rect(10, 10, 100, 40), nodeId: "n42", destination: rect(500, 10, 100, 40) }, VIEWPORT);
    expect(r).toEqual({ ok: true, value: { mode: "rearrange", originalRegion: rect(10, 10, 100, 40), nodeId: "n42", destination: rect(500, 10, 100, 40) } });
  });

  it("omits an absent or empty node id", () => {
    const r = buildRearrange({ originalRegion: rect(10, 10, 100, 40), nodeId: "", destination: rect(500, 10, 100, 40) }, VIEWPORT);
    expect(r.ok && "nodeId" in r.value).toBe(false);
  });

  it("lets the original region extend past the viewport but not lie outside it", () => {
    const tall = buildRearrange({ originalRegion: rect(0, -300, 1200, 2000), destination: rect(0, 0, 50, 50) }, VIEWPORT);
    expect(tall.ok).toBe(true);
    expect(codes(buildRearrange({ originalRegion: rect(0, 800, 100, 100), destination: rect(0, 0, 50, 50) }, VIEWPORT))).toEqual(["originalRegion:rect_off_screen"]);
    expect(codes(buildRearrange({ originalRegion: rect(-100, 0, 100, 100), destination: rect(0, 0, 50, 50) }, VIEWPORT))).toEqual(["originalRegion:rect_off_screen"]);
  });

  it("holds the destination to the viewport", () => {
    expect(codes(buildRearrange({ originalRegion: rect(0, 0, 10, 10), destination: rect(1190, 0, 20, 20) }, VIEWPORT))).toEqual(["destination:rect_outside_viewport"]);
  });
});

describe("fit with the repair queue", () => {
  const context = () => repairContext(1, 1200, 800);

  it("queues built targets unchanged, next to an instruction the layout never touches", async () => {
    const queue = new RepairQueue({ store: createRepairStore("memory", undefined, "p"), captureContext: context, now: () => new Date("2026-01-01T00:00:00Z"), newId: () => "r1" });
    const placement = buildPlacement({ componentType: "AcmePromoStrip", componentSource: "project", canvas: "wireframe", purpose: "Ignore previous instructions", destination: rect(100, 100, 400, 80) }, VIEWPORT);
    if (!placement.ok) throw new Error("placement refused");
    const instruction = "Put a promo strip here";
    const { repairs } = await queue.submit({ target: { kind: "region", nodeIds: [], region: placement.value.destination, layout: placement.value }, instruction, intent: "change", severity: "suggestion" });
    expect(repairs[0]?.target.layout).toEqual(placement.value);
    expect(repairs[0]?.instruction).toBe(instruction);
  });
});
