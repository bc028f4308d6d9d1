// The checkout: cart, address, payment card and pay button; after paying, a confirmation replaces the form.
import { useState, type FormEvent } from "react";
import { A3STestBoundary } from "@a3s-lab/testkit/react";
import { CartSummary } from "./CartSummary";
import { PayButton } from "./PayButton";
import { PaymentForm } from "./PaymentForm";
import { ShippingForm } from "./ShippingForm";
import { totalCents, type CartLine } from "./cart";
import { EMPTY_PAYMENT, isPayable, type PaymentDetails } from "./payment";
import { EMPTY_ADDRESS, isShippable, type ShippingAddress } from "./shipping";

export interface CheckoutProps {
  lines: readonly CartLine[];
}

export function Checkout({ lines }: CheckoutProps) {
  const [address, setAddress] = useState<ShippingAddress>(EMPTY_ADDRESS);
  const [payment, setPayment] = useState<PaymentDetails>(EMPTY_PAYMENT);
  const [paidBy, setPaidBy] = useState<string | null>(null);
  const ready = isShippable(address) && isPayable(payment);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) setPaidBy(address.name.trim());
  };
  return (
    <A3STestBoundary id="checkout" name="Checkout" source={{ file: "src/checkout/Checkout.tsx" }} facts={{ paid: paidBy !== null }}>
      <div className="checkout">
        <CartSummary lines={lines} />
        {paidBy === null ? (
          <form className="pay-form" onSubmit={submit} noValidate>
            <ShippingForm value={address} onChange={setAddress} />
            <PaymentForm value={payment} onChange={setPayment} />
            <PayButton totalCents={totalCents(lines)} disabled={!ready} />
          </form>
        ) : (
          <p className="card confirmation" role="status">
            Thanks, {paidBy}! Your order is on its way.
          </p>
        )}
      </div>
    </A3STestBoundary>
  );
}
