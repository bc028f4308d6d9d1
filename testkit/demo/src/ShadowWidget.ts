// An open shadow-DOM custom element, so snapshots and revision signals can be checked inside
// shadow roots.
export class ShadowWidget extends HTMLElement {
  private count = 0;

  connectedCallback(): void {
    if (this.shadowRoot !== null) return;
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = `
      <style>button { padding: 6px 12px; } .box { height: 60px; overflow: auto; }</style>
      <p>Shadow widget</p>
      <button data-testid="shadow-button">Shadow action</button>
      <span data-testid="shadow-count">Pressed 0 times</span>
      <div class="box" data-testid="shadow-scroller">${Array.from({ length: 12 }, (_, i) => `<div>Shadow row ${i + 1}</div>`).join("")}</div>`;
    root.querySelector("button")?.addEventListener("click", () => {
      this.count += 1;
      const label = root.querySelector('[data-testid="shadow-count"]');
      if (label !== null) label.textContent = `Pressed ${this.count} times`;
    });
  }
}

if (customElements.get("demo-shadow-widget") === undefined) customElements.define("demo-shadow-widget", ShadowWidget);
