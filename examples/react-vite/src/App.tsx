// The page: the checkout under the Test Kit. In development (`vite`), A3STestKit installs the
// Page Context runtime and A3SReviewOverlay lets a reviewer mark and send findings, which the
// a3sTest() plugin forwards to the running `a3s-test dev` session. A production build
// (`vite build`) installs neither. `redact` names the card and address fields: what a shopper
// types there stays out of everything the Test Kit and A3S Test report.
import { A3SReviewOverlay, A3STestKit } from "@a3s-lab/testkit/react";
import { Checkout } from "./checkout/Checkout";
import { SAMPLE_CART } from "./checkout/cart";

/** The page's private fields: the card and the address. */
export const PRIVATE_FIELDS = [".card-field", ".address-field"];

export function App() {
  return (
    <A3STestKit
      enabled={import.meta.env.DEV}
      page={{ id: "checkout" }}
      repairEndpoint="/__a3s-test/repairs"
      repairStorage="session"
      redact={PRIVATE_FIELDS}
      facts={() => ({ cartLines: SAMPLE_CART.length })}
    >
      <main className="page">
        <h1>Checkout</h1>
        <Checkout lines={SAMPLE_CART} />
      </main>
      <A3SReviewOverlay enabled={import.meta.env.DEV} locale="en" />
    </A3STestKit>
  );
}
