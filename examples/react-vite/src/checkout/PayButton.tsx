// The pay button: submits the checkout form, shows the amount, and stays disabled until the
// address can ship.
import { A3STestBoundary } from "@a3s-lab/testkit/react";
import { formatCents } from "./cart";

export interface PayButtonProps {
  totalCents: number;
  disabled: boolean;
}

export function PayButton({ totalCents, disabled }: PayButtonProps) {
  return (
    <A3STestBoundary id="pay-button" name="PayButton" source={{ file: "src/checkout/PayButton.tsx" }} facts={{ disabled }}>
      <button type="submit" className="pay" disabled={disabled}>
        Pay {formatCents(totalCents)}
      </button>
    </A3STestBoundary>
  );
}
