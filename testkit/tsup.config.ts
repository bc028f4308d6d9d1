import { defineConfig } from "tsup";

// Three entries; the React and overlay entries import the root entry (and React the overlay
// entry) by package name, so every entry shares one runtime and one overlay.
export default defineConfig({
  entry: { index: "src/index.ts", react: "src/react/index.ts", overlay: "src/overlay/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2021",
  external: ["react", "react-dom", "@a3s-lab/testkit", "@a3s-lab/testkit/overlay"],
  treeshake: true,
});
