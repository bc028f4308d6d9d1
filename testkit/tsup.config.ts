import { defineConfig } from "tsup";

// Two entries; the React entry imports the root entry by package name so both share one runtime.
export default defineConfig({
  entry: { index: "src/index.ts", react: "src/react/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2021",
  external: ["react", "react-dom", "@a3s-lab/testkit"],
  treeshake: true,
});
