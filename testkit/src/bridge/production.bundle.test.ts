// @vitest-environment node
/**
 * A production build as a bundler makes it: the runtime's source bundled with
 * `process.env.NODE_ENV` defined as "production" (esbuild's `define`, as Vite does), then run in
 * a fresh jsdom window. Without `keepInProduction.reason` the runtime stays off; with one it
 * installs. (esbuild needs Node's own globals, hence the Node environment and a jsdom of its own.)
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const entry = fileURLToPath(new URL("../index.ts", import.meta.url));

async function bundle(keep: string): Promise<string> {
  const out = await build({
    stdin: {
      contents: `import { installTestKit } from ${JSON.stringify(entry)};
        console.warn = () => undefined;
        const b = installTestKit({ enabled: true, page: { id: "bundled" }${keep} });
        window.__a3sInstalled = b !== null; b?.dispose();`,
      resolveDir: fileURLToPath(new URL(".", import.meta.url)),
      loader: "ts",
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  return out.outputFiles[0]?.text ?? "";
}

/** The part of jsdom's API this test uses (the package ships no types). */
interface Jsdom {
  JSDOM: new (html: string, options: { runScripts: "outside-only"; pretendToBeVisual: boolean }) => { window: Window & { eval(code: string): unknown; close(): void } };
}

async function installed(code: string): Promise<unknown> {
  const spec = "jsdom";
  const { JSDOM } = (await import(spec)) as Jsdom;
  const dom = new JSDOM("<!doctype html><p>app</p>", { runScripts: "outside-only", pretendToBeVisual: true });
  try {
    dom.window.eval(code);
    return (dom.window as unknown as { __a3sInstalled?: boolean }).__a3sInstalled;
  } finally {
    dom.window.close();
  }
}

describe("a bundled production build", () => {
  it("keeps the Context Runtime only with a stated reason", async () => {
    expect(await installed(await bundle(""))).toBe(false);
    expect(await installed(await bundle(`, keepInProduction: { reason: "staging for CI" }`))).toBe(true);
  });
});
