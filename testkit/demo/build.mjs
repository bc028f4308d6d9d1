// Builds the demo with esbuild against the package's built output (dist/), into demo/dist/: a
// static folder any loopback server can serve. `example.html` is the repository's example app
// (examples/react-vite: its checkout with prices, from its own sources; the locale from the URL), so the overlay's
// browser tests mark the same page a team sees; React comes from this package's node_modules.
import { build } from "esbuild";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here("./dist/");
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: { app: here("./src/main.tsx"), review: here("./src/review/main.tsx"), example: here("./src/example/main.tsx") },
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
    // One React for the example and the Test Kit, whether or not the example ran `npm ci`.
    react: here("../node_modules/react"),
    "react-dom": here("../node_modules/react-dom"),
  },
  logLevel: "warning",
});
await copyFile(here("./index.html"), `${out}index.html`);
await copyFile(here("./review.html"), `${out}review.html`);
await copyFile(here("./example.html"), `${out}example.html`);
console.log(`demo built into ${out}`);
