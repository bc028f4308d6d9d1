// Checks that the demo build output exists and references its bundle (run after build:demo).
import { readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../demo/dist/", import.meta.url));
const required = ["index.html", "app.js", "app.css", "review.html", "review.js", "review.css", "example.html", "example.js", "example.css"];
const problems = [];
for (const file of required) {
  try {
    const s = await stat(dist + file);
    if (s.size === 0) problems.push(`${file} is empty`);
  } catch {
    problems.push(`${file} is missing`);
  }
}
if (problems.length === 0) {
  const html = await readFile(dist + "index.html", "utf8");
  const js = await readFile(dist + "app.js", "utf8");
  if (!html.includes("./app.js")) problems.push("index.html does not load ./app.js");
  if (!js.includes("a3s.test.page-context")) problems.push("app.js does not contain the Test Kit runtime");
}
if (problems.length > 0) {
  console.error(`demo build check failed:\n- ${problems.join("\n- ")}\nrun: npm run build && npm run build:demo`);
  process.exit(1);
}
console.log(`demo build ok: ${required.map((f) => `demo/dist/${f}`).join(", ")}`);
