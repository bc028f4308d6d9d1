// The boundaries the reviewer's findings point back to: each checkout component registers under
// A3STestKit with its source file, so a finding carries the file an agent has to edit.
import { render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { getPageContextBridge } from "@a3s-lab/testkit";
import { A3STestKit } from "@a3s-lab/testkit/react";
import { Checkout } from "./Checkout";
import { SAMPLE_CART } from "./cart";

afterEach(() => getPageContextBridge()?.dispose());

describe("checkout boundaries", () => {
  it("register each component with its source file", () => {
    render(
      <A3STestKit enabled page={{ id: "checkout" }}>
        <Checkout lines={SAMPLE_CART} />
      </A3STestKit>,
    );
    const components = getPageContextBridge()?.snapshot().components ?? [];
    const sources = Object.fromEntries(components.map((c) => [c.name, c.source?.file]));
    expect(sources).toEqual({
      Checkout: "src/checkout/Checkout.tsx",
      CartSummary: "src/checkout/CartSummary.tsx",
      ShippingForm: "src/checkout/ShippingForm.tsx",
      PayButton: "src/checkout/PayButton.tsx",
    });
  });

  it("stay inert without an enabled A3STestKit", () => {
    render(<Checkout lines={SAMPLE_CART} />);
    expect(getPageContextBridge()).toBeNull();
  });
});
