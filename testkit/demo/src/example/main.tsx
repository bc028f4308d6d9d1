// Entry of example.html: the repository's example checkout (examples/react-vite) — its own
// Checkout component, cart, stylesheet and Test Kit props — with the Review Overlay in the
// locale `?locale=zh-CN` asks for (the example itself is English only). The overlay's panel
// tests check on this page that the panel leaves the prices uncovered.
import { createRoot } from "react-dom/client";
import { A3SReviewOverlay, A3STestKit } from "@a3s-lab/testkit/react";
import { Checkout } from "../../../../examples/react-vite/src/checkout/Checkout";
import { SAMPLE_CART } from "../../../../examples/react-vite/src/checkout/cart";
import { PRIVATE_FIELDS } from "../../../../examples/react-vite/src/App";
import "../../../../examples/react-vite/src/styles.css";

const locale = new URLSearchParams(window.location.search).get("locale") === "zh-CN" ? "zh-CN" : "en";

function Page() {
  return (
    <A3STestKit enabled page={{ id: "checkout" }} repairEndpoint="/__a3s-test/repairs" repairStorage="session" redact={PRIVATE_FIELDS} facts={() => ({ cartLines: SAMPLE_CART.length })}>
      <main className="page">
        <h1>Checkout</h1>
        <Checkout lines={SAMPLE_CART} />
      </main>
      <A3SReviewOverlay enabled locale={locale} />
    </A3STestKit>
  );
}

const container = document.getElementById("root");
if (container !== null) createRoot(container).render(<Page />);
