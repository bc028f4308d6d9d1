// Writes web/src/a11y.generated.js from src/a11y (run after changing the module).
import { writeFile } from "node:fs/promises";
import { bundleA11y, GENERATED_PATH } from "./a11y-bundle.mjs";

await writeFile(GENERATED_PATH, await bundleA11y());
console.log(`wrote ${GENERATED_PATH}`);
