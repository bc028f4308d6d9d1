// Prints the min+gzip size of the built root entry (dist/index.js) and fails above the budget.
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const BUDGET_BYTES = 30 * 1024;
const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: "esm", write: false, target: "es2021" });
const code = result.outputFiles[0].contents;
const gz = gzipSync(code, { level: 9 }).length;
console.log(`root entry: ${code.length} bytes minified, ${gz} bytes min+gzip (budget ${BUDGET_BYTES})`);
if (gz > BUDGET_BYTES) {
  console.error("root entry is over its size budget");
  process.exit(1);
}
