// Builds the demo with esbuild against the package's built output (dist/), into demo/dist/: a
// static folder any loopback server can serve.
import { build } from "esbuild";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here("./dist/");
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: { app: here("./src/main.tsx") },
  bundle: true,
  format: "esm",
  target: "es2021",
  outdir: out,
  sourcemap: true,
  minify: false,
  jsx: "automatic",
  loader: { ".css": "css" },
  define: { "process.env.NODE_ENV": '"development"' },
  alias: {
    "@a3s-lab/testkit/react": here("../dist/react.js"),
    "@a3s-lab/testkit": here("../dist/index.js"),
  },
  logLevel: "warning",
});
await copyFile(here("./index.html"), `${out}index.html`);
console.log(`demo built into ${out}`);
