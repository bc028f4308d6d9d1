// The cart's lines and the order total.
import { A3STestBoundary } from "@a3s-lab/testkit/react";
import { formatCents, shippingCents, subtotalCents, totalCents, type CartLine } from "./cart";

export interface CartSummaryProps {
  lines: readonly CartLine[];
}

export function CartSummary({ lines }: CartSummaryProps) {
  const subtotal = subtotalCents(lines);
  const shipping = shippingCents(subtotal);
  return (
    <A3STestBoundary id="cart-summary" name="CartSummary" source={{ file: "src/checkout/CartSummary.tsx" }} facts={{ lines: lines.length }}>
      <section className="card" aria-labelledby="cart-heading">
        <h2 id="cart-heading">Your cart</h2>
        <ul className="lines">
          {lines.map((line) => (
            <li key={line.id}>
              <span>
                {line.name} × {line.quantity}
              </span>
              <span>{formatCents(line.unitPriceCents * line.quantity)}</span>
            </li>
          ))}
        </ul>
        <dl className="totals">
          <dt>Subtotal</dt>
          <dd>{formatCents(subtotal)}</dd>
          <dt>Shipping</dt>
          <dd>{shipping === 0 ? "Free" : formatCents(shipping)}</dd>
          <dt>Total</dt>
          <dd data-total>{formatCents(totalCents(lines))}</dd>
        </dl>
      </section>
    </A3STestBoundary>
  );
}
