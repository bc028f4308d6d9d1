// Prints the min+gzip size of the built root entry (dist/index.js) and overlay entry
// (dist/overlay.js, without the root entry it imports) and fails when one is over its budget.
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const ENTRIES = [
  { name: "root entry", file: "../dist/index.js", budget: 30 * 1024, external: [] },
  { name: "overlay entry", file: "../dist/overlay.js", budget: 45 * 1024, external: ["@a3s-lab/testkit"] },
];

let over = false;
for (const { name, file, budget, external } of ENTRIES) {
  const entry = fileURLToPath(new URL(file, import.meta.url));
  const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: "esm", write: false, target: "es2021", external });
  const code = result.outputFiles[0].contents;
  const gz = gzipSync(code, { level: 9 }).length;
  console.log(`${name}: ${code.length} bytes minified, ${gz} bytes min+gzip (budget ${budget})`);
  if (gz > budget) {
    console.error(`${name} is over its size budget`);
    over = true;
  }
}
if (over) process.exit(1);
