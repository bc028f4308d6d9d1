//! Test-only: a React root in a fresh container for each test of a file, unmounted (and any
//! installed bridge disposed, spies restored) after it — the set-up every React component test
//! shares. Not exported by the package.
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, vi } from "vitest";
import { getPageContextBridge } from "@a3s-lab/testkit";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The current test's root. */
export interface TestRoot {
  /** The container the root renders into (attached to the document). */
  readonly container: HTMLElement;
  /** Render `node` (inside `act`). */
  render(node: ReactNode): void;
  /** Unmount what was rendered (inside `act`); later renders go to a fresh root. */
  unmount(): void;
}

/** Register the per-test set-up and tear-down of one React root; call once at module level. */
export function perTestRoot(): TestRoot {
  let container: HTMLElement;
  let root: Root;
  beforeEach(() => {
    container = document.createElement("div");
    document.body.replaceChildren(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    getPageContextBridge()?.dispose();
    vi.restoreAllMocks();
  });
  return {
    get container() {
      return container;
    },
    render: (node) => act(() => root.render(node)),
    unmount: () => {
      act(() => root.unmount());
      root = createRoot(container);
    },
  };
}
