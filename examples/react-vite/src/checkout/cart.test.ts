import { describe, expect, it } from "vitest";
import { formatCents, SAMPLE_CART, shippingCents, subtotalCents, totalCents, type CartLine } from "./cart";

describe("cart arithmetic", () => {
  it("adds price × quantity in cents", () => {
    expect(subtotalCents(SAMPLE_CART)).toBe(2 * 1450 + 990);
  });

  it("charges shipping below the threshold only", () => {
    expect(shippingCents(4999)).toBe(490);
    expect(shippingCents(5000)).toBe(0);
    expect(shippingCents(0)).toBe(0);
  });

  it("totals subtotal and shipping", () => {
    expect(totalCents(SAMPLE_CART)).toBe(3890 + 490);
    const big: CartLine[] = [{ id: "grinder", name: "Grinder", unitPriceCents: 8900, quantity: 1 }];
    expect(totalCents(big)).toBe(8900);
  });

  it("formats euros with two decimals", () => {
    expect(formatCents(4380)).toBe("€43.80");
    expect(formatCents(5)).toBe("€0.05");
  });
});
