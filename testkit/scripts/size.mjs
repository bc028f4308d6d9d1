// Prints the min+gzip size of the built root entry (dist/index.js) and overlay entry
// (dist/overlay.js, without the root entry it imports) and fails when one is over its budget.
// Each built file is bundled and minified again as an app's bundler would (esbuild, as Vite
// does), so what counts is what a page that imports the entry ships.
// `node scripts/size.mjs --analyze` also lists each entry's modules by minified bytes (from the
// sources, bundled the same way) to show where a budget goes.
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const ENTRIES = [
  { name: "root entry", file: "../dist/index.js", source: "../src/index.ts", budget: 32 * 1024, external: [] },
  { name: "overlay entry", file: "../dist/overlay.js", source: "../src/overlay/index.ts", budget: 45 * 1024, external: ["@a3s-lab/testkit"] },
];
const TARGET = "es2022";
const analyze = process.argv.includes("--analyze");
const path = (rel) => fileURLToPath(new URL(rel, import.meta.url));

let over = false;
for (const { name, file, source, budget, external } of ENTRIES) {
  const result = await build({ entryPoints: [path(file)], bundle: true, minify: true, format: "esm", write: false, target: TARGET, external });
  const code = result.outputFiles[0].contents;
  const gz = gzipSync(code, { level: 9 }).length;
  console.log(`${name}: ${code.length} bytes minified, ${gz} bytes min+gzip (budget ${budget})`);
  if (gz > budget) {
    console.error(`${name} is over its size budget`);
    over = true;
  }
  if (analyze) {
    const meta = await build({
      entryPoints: [path(source)],
      bundle: true,
      minify: true,
      format: "esm",
      write: false,
      target: TARGET,
      legalComments: "none",
      metafile: true,
      outfile: "size-analysis.js",
      absWorkingDir: path(".."),
      // The overlay entry imports the root entry by package name (see tsup.config.ts).
      external: [...external, "@a3s-lab/testkit/overlay"],
    });
    const inputs = Object.values(meta.metafile.outputs).find((o) => o.entryPoint !== undefined)?.inputs ?? {};
    const rows = Object.entries(inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
    for (const [module, { bytesInOutput }] of rows) if (bytesInOutput > 0) console.log(`  ${String(bytesInOutput).padStart(7)}  ${module}`);
  }
}
if (over) process.exit(1);
