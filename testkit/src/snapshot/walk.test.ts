import { afterEach, describe, expect, it } from "vitest";
import { walk, OVERLAY_HOST_TAG, BOUNDARY_WRAPPER_TAG } from "./walk";
import { NodeIdTable } from "./ids";
import { RedactionRules } from "../privacy/redact";
import { fakePlatform } from "../testing/fakePlatform";
import { installTestKit } from "../bridge/install";
import { SDK_VERSION } from "../version";
import pkg from "../../package.json";

function run(mode: "summary" | "all", redact: string[] = []) {
  return walk(Array.from(document.body.children), {
    platform: fakePlatform(window).platform,
    ids: new NodeIdTable(),
    rules: new RedactionRules(redact, document),
    mode,
    componentRoots: new Map(),
    maxEntries: 10_000,
  });
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("walk", () => {
  it("skips scripts, styles, templates and the overlay host; walks through boundary wrappers", () => {
    document.body.innerHTML = `<script></script><style></style><template><b>t</b></template><${OVERLAY_HOST_TAG}><button>overlay</button></${OVERLAY_HOST_TAG}><${BOUNDARY_WRAPPER_TAG}><button>inside</button></${BOUNDARY_WRAPPER_TAG}>`;
    const { entries } = run("all");
    expect(entries.map((e) => e.el.localName)).toEqual(["button"]);
    expect(entries[0]?.el.textContent).toBe("inside");
  });
  it("keeps meaningful nodes in summary and re-parents onto the nearest kept ancestor", () => {
    document.body.innerHTML = `<nav><div><div><a href="/">Home</a></div></div></nav>`;
    const { entries } = run("summary");
    expect(entries.map((e) => e.el.localName)).toEqual(["nav", "a"]);
    expect(entries[1]?.parentIndex).toBe(0);
    expect(run("all").entries).toHaveLength(4);
  });
  it("stops at redacted roots and iframes", () => {
    document.body.innerHTML = `<div class="secret"><button>x</button></div><iframe></iframe>`;
    const { entries } = run("all", [".secret"]);
    expect(entries.map((e) => [e.el.localName, e.redacted])).toEqual([["div", true], ["iframe", false]]);
  });
  it("reports overflow at the entry ceiling", () => {
    document.body.innerHTML = "<p>a</p><p>b</p><p>c</p>";
    const result = walk(Array.from(document.body.children), {
      platform: fakePlatform(window).platform,
      ids: new NodeIdTable(),
      rules: new RedactionRules([], document),
      mode: "all",
      componentRoots: new Map(),
      maxEntries: 2,
    });
    expect(result).toMatchObject({ overflow: true });
    expect(result.entries).toHaveLength(2);
  });
});

describe("overlay host", () => {
  it("never advances the revision for changes inside it", async () => {
    document.body.innerHTML = `<${OVERLAY_HOST_TAG}></${OVERLAY_HOST_TAG}><p>app</p>`;
    const bridge = installTestKit({ enabled: true, page: { id: "o" } });
    try {
      const host = document.querySelector(OVERLAY_HOST_TAG) as Element;
      const root = host.attachShadow({ mode: "open" });
      root.innerHTML = "<button>Mark</button>";
      host.append(document.createElement("span"));
      expect((await bridge?.waitForChange(1, 30))?.changed).toBe(false);
      expect(bridge?.snapshot().nodes.map((n) => n.tag)).toEqual(["p"]);
    } finally {
      bridge?.dispose();
    }
  });
});

describe("version", () => {
  it("matches package.json", () => {
    expect(SDK_VERSION).toBe(pkg.version);
  });
});
