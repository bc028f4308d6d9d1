// The boundaries the reviewer's findings point back to: each checkout component registers under
// A3STestKit with its source file, so a finding carries the file an agent has to edit.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { getPageContextBridge } from "@a3s-lab/testkit";
import { A3STestKit } from "@a3s-lab/testkit/react";
import { PRIVATE_FIELDS } from "../App";
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
      PaymentForm: "src/checkout/PaymentForm.tsx",
      PayButton: "src/checkout/PayButton.tsx",
    });
  });

  it("keep every card and address field private", async () => {
    const user = userEvent.setup();
    render(
      <A3STestKit enabled page={{ id: "checkout" }} redact={PRIVATE_FIELDS}>
        <Checkout lines={SAMPLE_CART} />
      </A3STestKit>,
    );
    const fields = screen.getAllByRole("textbox");
    expect(fields.map((f) => f.getAttribute("id"))).toEqual([
      "shipping-name",
      "shipping-street",
      "shipping-city",
      "shipping-postcode",
      "payment-cardNumber",
      "payment-expiry",
      "payment-securityCode",
    ]);
    for (const field of fields) expect(PRIVATE_FIELDS.some((s) => field.matches(s)), field.id).toBe(true);
    await user.type(screen.getByLabelText("Full name"), "Grace Hopper");
    await user.type(screen.getByLabelText("Card number"), "4000 0566 5566 5556");
    const seen = JSON.stringify(getPageContextBridge()?.snapshot({ detail: "forensic" }));
    expect(seen).not.toContain("Grace Hopper");
    expect(seen).not.toContain("4000 0566");
  });

  it("stay inert without an enabled A3STestKit", () => {
    render(<Checkout lines={SAMPLE_CART} />);
    expect(getPageContextBridge()).toBeNull();
  });
});
