// Design advice about the example checkout's current revision, handed to the page the way
// `agent audit` does (`bridge.showAdvice`): contrast on the disabled pay button (a node), the
// heading's off-grid margin (a region) and the total's weight (the page). Shared by the panel
// tests and the documentation screenshots; it runs inside the page (`page.evaluate`).

/** Shows the advice; true when the page accepted it for its current revision. */
export function showExampleAdvice(): boolean {
  type Bridge = { probe(): { revision: number }; nodeIdOf(el: Element): string | null; showAdvice(a: unknown): { shown: boolean } };
  const bridge = (window as unknown as Record<symbol, Bridge>)[Symbol.for("a3s.test.page-context")] as Bridge;
  const pay = document.querySelector("button.pay") as Element;
  const heading = (document.querySelector("h1") as Element).getBoundingClientRect();
  return bridge.showAdvice({
    protocol: "a3s.test.design-advice/1",
    revision: bridge.probe().revision,
    provider: "auditor",
    model: "a3s-design-auditor-1",
    items: [
      { id: "contrast-1", dimension: "colour", priority: "high", target: { kind: "node", nodeId: bridge.nodeIdOf(pay) }, title: "Text contrast 2.35:1 is below 4.5:1", rationale: "White on #9aa6bd gives 2.35:1; body text needs 4.5:1.", recommendation: "Darken the disabled button's background or its text." },
      { id: "spacing-2", dimension: "spacing", priority: "low", target: { kind: "region", x: heading.x, y: heading.y, width: heading.width, height: heading.height }, title: "Heading margin 18.76 px is off the 4 px grid", rationale: "The other gaps on the page are multiples of 4 px.", recommendation: "Use 20 px." },
      { id: "hierarchy-3", dimension: "hierarchy", priority: "medium", target: { kind: "page" }, title: "The total does not stand out from the other lines", rationale: "Same weight and size as the subtotal.", recommendation: "Set the total in bold." },
    ],
  }).shown;
}
