import { defineConfig } from "tsup";

// Four entries: three for the page and the Vite plugin, which runs in Node. The React and overlay
// entries import the root entry (and React the overlay entry) by package name, so every entry
// shares one runtime and one overlay.
export default defineConfig({
  entry: { index: "src/index.ts", react: "src/react/index.ts", overlay: "src/overlay/index.ts", vite: "src/vite/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  external: ["react", "react-dom", "vite", "@a3s-lab/testkit", "@a3s-lab/testkit/overlay"],
  treeshake: true,
  esbuildOptions(options) {
    // The sources document every module with a `//!` header, which esbuild treats as a legal
    // comment and keeps (at the end of the file) even through an app's minifying bundler: about
    // 12 KB of the root entry. The package has no third-party code and no license notices to
    // keep; the comments stay in the sources and in the source maps' sourcesContent.
    options.legalComments = "none";
  },
});
