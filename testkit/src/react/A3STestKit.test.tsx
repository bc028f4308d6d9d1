import { act, StrictMode, useState } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { getPageContextBridge, installTestKit } from "@a3s-lab/testkit";
import { perTestRoot } from "../testing/reactRoot";
import { A3STestBoundary, A3STestKit } from "./index";

const root = perTestRoot();
const render = root.render;

describe("A3STestKit", () => {
  it("installs on mount and disposes on unmount", () => {
    render(<A3STestKit enabled page={{ id: "app" }}><p>hi</p></A3STestKit>);
    const bridge = getPageContextBridge();
    expect(bridge?.probe().pageId).toBe("app");
    root.unmount();
    expect(getPageContextBridge()).toBeNull();
  });

  it("installs nothing unless enabled is exactly true", () => {
    render(<A3STestKit page={{ id: "app" }}><p>hi</p></A3STestKit>);
    expect(getPageContextBridge()).toBeNull();
  });

  it("survives StrictMode double effects", () => {
    render(
      <StrictMode>
        <A3STestKit enabled page={{ id: "app" }}>
          <A3STestBoundary id="card" name="Card"><div>card</div></A3STestBoundary>
        </A3STestKit>
      </StrictMode>,
    );
    expect(getPageContextBridge()?.snapshot().components.map((c) => c.id)).toEqual(["card"]);
  });

  it("does not dispose a runtime it did not install", () => {
    const outer = installTestKit({ enabled: true, page: { id: "outer" } });
    render(<A3STestKit enabled page={{ id: "app" }}><p>x</p></A3STestKit>);
    root.unmount();
    expect(getPageContextBridge()).toBe(outer);
  });

  it("is SSR-safe", () => {
    const html = renderToString(
      <A3STestKit enabled page={{ id: "ssr" }}>
        <A3STestBoundary id="b" name="B"><span>one</span><span>two</span></A3STestBoundary>
      </A3STestKit>,
    );
    expect(html).toContain("<a3s-test-boundary");
    expect(getPageContextBridge()).toBeNull();
  });

  it("passes the latest facts function", () => {
    function App() {
      const [n, setN] = useState(1);
      return (
        <A3STestKit enabled page={{ id: "app" }} facts={() => ({ n })}>
          <button onClick={() => setN(n + 1)}>inc</button>
        </A3STestKit>
      );
    }
    render(<App />);
    act(() => root.container.querySelector("button")?.click());
    expect(getPageContextBridge()?.snapshot().facts).toEqual({ n: 2 });
  });
});

describe("A3STestBoundary", () => {
  it("registers a single host child by ref without changing the DOM", () => {
    const ref = { current: null as HTMLFormElement | null };
    render(
      <A3STestKit enabled page={{ id: "app" }}>
        <A3STestBoundary id="login" name="LoginForm" source={{ file: "src/Login.tsx", line: 4, column: 3 }} facts={{ step: 1 }}>
          <form ref={ref}><button>Sign in</button></form>
        </A3STestBoundary>
      </A3STestKit>,
    );
    expect(root.container.innerHTML).toBe("<form><button>Sign in</button></form>");
    expect(ref.current?.tagName).toBe("FORM");
    const snap = getPageContextBridge()?.snapshot();
    expect(snap?.components).toEqual([expect.objectContaining({ id: "login", name: "LoginForm", source: { file: "src/Login.tsx", line: 4, column: 3 }, facts: { step: 1 } })]);
    const button = snap?.nodes.find((n) => n.tag === "button");
    expect(button?.componentId).toBe("login");
    expect(button?.sourceMapping?.candidates[0]).toMatchObject({ span: { file: "src/Login.tsx", line: 4, column: 3 }, relation: "ancestor", origin: "boundary_hint" });
    const form = snap?.nodes.find((n) => n.tag === "form");
    expect(form?.sourceMapping?.candidates[0]).toMatchObject({ relation: "exact", confidence: 0.9 });
  });

  it("wraps several children in a walked-through display:contents element and nests", () => {
    render(
      <A3STestKit enabled page={{ id: "app" }}>
        <A3STestBoundary id="list" name="List">
          <h2>Items</h2>
          <A3STestBoundary id="item-1" name="Item"><p>one</p></A3STestBoundary>
        </A3STestBoundary>
      </A3STestKit>,
    );
    expect(root.container.querySelector("a3s-test-boundary")?.getAttribute("style")).toBe("display: contents;");
    const snap = getPageContextBridge()?.snapshot();
    expect(snap?.nodes.some((n) => n.tag === "a3s-test-boundary")).toBe(false);
    expect(snap?.components.find((c) => c.id === "item-1")?.parentId).toBe("list");
    expect(snap?.nodes.find((n) => n.tag === "h2")?.componentId).toBe("list");
    expect(snap?.nodes.find((n) => n.tag === "p")?.componentId).toBe("item-1");
  });

  it("warns once per duplicate id instead of throwing", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    render(
      <A3STestKit enabled page={{ id: "app" }}>
        <A3STestBoundary id="dup" name="A"><p>a</p></A3STestBoundary>
        <A3STestBoundary id="dup" name="B"><p>b</p></A3STestBoundary>
      </A3STestKit>,
    );
    expect(warn.mock.calls.some(([m]) => String(m).startsWith("@a3s-lab/testkit: A3STestBoundary \"dup\""))).toBe(true);
    warn.mockRestore();
  });

  it("advances the revision when boundaries mount", async () => {
    render(<A3STestKit enabled page={{ id: "app" }}><p>x</p></A3STestKit>);
    const bridge = getPageContextBridge();
    const rev = bridge?.snapshot().revision ?? 0;
    render(<A3STestKit enabled page={{ id: "app" }}><A3STestBoundary id="late" name="Late"><p>x</p></A3STestBoundary></A3STestKit>);
    const change = await bridge?.waitForChange(rev, 1000);
    expect(change?.changed).toBe(true);
  });
});
