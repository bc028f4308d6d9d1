import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { CartSummary } from "./CartSummary";
import { Checkout } from "./Checkout";
import { PayButton } from "./PayButton";
import { SAMPLE_CART } from "./cart";

async function fillAddress(user: ReturnType<typeof userEvent.setup>, postcode = "10115") {
  await user.type(screen.getByLabelText("Full name"), "Ada Lovelace");
  await user.type(screen.getByLabelText("Street"), "1 Analytical Row");
  await user.type(screen.getByLabelText("City"), "London");
  await user.type(screen.getByLabelText("Postcode"), postcode);
}

async function fillCard(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText("Card number"), "4242 4242 4242 4242");
  await user.type(screen.getByLabelText("Expiry (MM/YY)"), "12/30");
  await user.type(screen.getByLabelText("Security code"), "123");
}

describe("CartSummary", () => {
  it("lists each line and the total with shipping", () => {
    render(<CartSummary lines={SAMPLE_CART} />);
    expect(screen.getByRole("heading", { name: "Your cart" })).toBeTruthy();
    expect(screen.getByText("Enamel mug × 2")).toBeTruthy();
    expect(screen.getByText("€29.00")).toBeTruthy();
    expect(screen.getByText("€4.90")).toBeTruthy();
    expect(screen.getByText("€43.80")).toBeTruthy();
  });

  it("shows free shipping from €50", () => {
    render(<CartSummary lines={[{ id: "g", name: "Grinder", unitPriceCents: 8900, quantity: 1 }]} />);
    expect(screen.getByText("Free")).toBeTruthy();
  });
});

describe("PayButton", () => {
  it("names the amount and follows `disabled`", () => {
    const { rerender } = render(<PayButton totalCents={4380} disabled />);
    const button = screen.getByRole("button", { name: "Pay €43.80" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    rerender(<PayButton totalCents={4380} disabled={false} />);
    expect(button.disabled).toBe(false);
  });
});

describe("Checkout", () => {
  it("enables paying once the address can ship and the card is complete, then confirms the order", async () => {
    const user = userEvent.setup();
    render(<Checkout lines={SAMPLE_CART} />);
    const pay = screen.getByRole("button", { name: "Pay €43.80" }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    await fillAddress(user);
    expect(pay.disabled).toBe(true);
    await fillCard(user);
    expect(pay.disabled).toBe(false);
    await user.click(pay);
    expect(screen.getByRole("status").textContent).toBe("Thanks, Ada Lovelace! Your order is on its way.");
    expect(screen.queryByRole("button", { name: /Pay/ })).toBeNull();
  });

  it("shows a field's error once it has been left", async () => {
    const user = userEvent.setup();
    render(<Checkout lines={SAMPLE_CART} />);
    await fillAddress(user, "12");
    expect(screen.queryByText("Enter a 4 or 5 digit postcode")).toBeNull();
    await user.tab();
    expect(screen.getByText("Enter a 4 or 5 digit postcode")).toBeTruthy();
    expect(screen.getByLabelText("Postcode").getAttribute("aria-invalid")).toBe("true");
  });
});
