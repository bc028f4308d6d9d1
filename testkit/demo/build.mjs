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
  entryPoints: { app: here("./src/main.tsx"), review: here("./src/review/main.tsx") },
  bundle: true,
  format: "esm",
  target: "es2021",
  outdir: out,
  sourcemap: true,
  minify: false,
  jsx: "automatic",
  loader: { ".css": "css" },
  // The documentation's sample reads `import.meta.env.DEV` (a Vite convention).
  define: { "process.env.NODE_ENV": '"development"', "import.meta.env.DEV": "true" },
  alias: {
    "@a3s-lab/testkit/react": here("../dist/react.js"),
    "@a3s-lab/testkit/overlay": here("../dist/overlay.js"),
    "@a3s-lab/testkit": here("../dist/index.js"),
  },
  logLevel: "warning",
});
await copyFile(here("./index.html"), `${out}index.html`);
await copyFile(here("./review.html"), `${out}review.html`);
console.log(`demo built into ${out}`);
