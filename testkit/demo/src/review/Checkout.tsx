// The checkout page the documentation's sample wraps: a form with a payment field (redacted), a
// paragraph to select text in, a nested scroll container, a spinning badge (page motion) and
// enough height for the page to scroll. The Review Overlay browser tests mark things here.
export function Checkout() {
  return (
    <main className="checkout">
      <h1>Checkout</h1>
      <p data-testid="summary" className="summary">
        Your order ships in two days. Delivery is free for orders over 40 euros, and returns are accepted for thirty days.
      </p>
      <form className="checkout-form" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="name">Full name</label>
        <input id="name" data-testid="name" type="text" autoComplete="name" />
        <label htmlFor="card">Card number</label>
        <input id="card" data-testid="card" data-payment-field type="text" inputMode="numeric" />
        <label htmlFor="notes">Delivery notes</label>
        <textarea id="notes" data-testid="notes" rows={2} />
        <div className="editor" data-testid="rich" contentEditable suppressContentEditableWarning role="textbox" aria-label="Gift message" aria-multiline="true">
          Happy birthday!
        </div>
        <button type="submit" data-testid="pay">Pay now</button>
      </form>
      <section aria-label="Order items">
        <h2>Items</h2>
        <div className="items" data-testid="items" tabIndex={0}>
          {Array.from({ length: 24 }, (_, i) => (
            <p key={i} data-testid={`item-${i + 1}`}>
              Item {i + 1}: blue mug
            </p>
          ))}
        </div>
      </section>
      <p>
        <span className="spinner" data-testid="spinner" aria-hidden="true" /> Checking stock…
      </p>
      <div className="spacer" aria-hidden="true" />
      <footer>
        <button type="button" data-testid="help">Need help?</button>
      </footer>
    </main>
  );
}
