// @vitest-environment node
//! Fails when `web/src/a11y.generated.js` (committed, included by the Rust driver) is not
//! the bundle of this module as it is now: run `npm run build:a11y` and commit the result.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { bundleA11y, GENERATED_PATH } from "../../scripts/a11y-bundle.mjs";

describe("the driver's a11y bundle", () => {
  it("is the committed file, byte for byte (else run `npm run build:a11y`)", async () => {
    const fresh = await bundleA11y();
    const committed = await readFile(GENERATED_PATH, "utf8");
    expect(committed === fresh, "web/src/a11y.generated.js is stale: run `npm run build:a11y` in testkit/").toBe(true);
  });
  it("defines the functions the resolver destructures, as one local and nothing else", async () => {
    const code = await bundleA11y();
    const api = new Function(`${code}\nreturn A3S_A11Y;`)() as Record<string, unknown>;
    for (const name of ["accName", "childNodesComposed", "hiddenFromA11y", "inputType", "norm", "parentComposed", "rendered", "roleOf", "styleOf"]) {
      expect(typeof api[name], name).toBe("function");
    }
    expect(code).not.toMatch(/\bwindow\.\w+\s*=|globalThis/);
  });
});
