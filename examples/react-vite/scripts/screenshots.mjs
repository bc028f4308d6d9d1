// Re-takes the screenshots of docs/dev.md: the overlay open on the checkout, the pay button being
// marked, and the sent finding. Start the app first (`npx vite`, or `a3s-test dev` to show the
// session's statuses), then: `node scripts/screenshots.mjs [url]`. Uses the Test Kit's own
// playwright-core (a dev dependency of ../../testkit) and Chromium ($A3S_CHROMIUM or
// /usr/bin/chromium).
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(new URL("../../../testkit/package.json", import.meta.url));
const { chromium } = require("playwright-core");
const out = fileURLToPath(new URL("../../../docs/dev/", import.meta.url));
const url = process.argv[2] ?? "http://127.0.0.1:5173/";

const browser = await chromium.launch({ executablePath: process.env.A3S_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"], timeout: 30_000 });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
  page.setDefaultTimeout(15_000);
  await page.goto(url);
  await page.locator('a3s-review-overlay [data-part="panel"]').waitFor({ state: "visible" });
  await page.screenshot({ path: `${out}overlay-open.png` });
  await page.keyboard.press("e");
  const box = await page.getByRole("button", { name: /Pay/ }).boundingBox();
  if (box === null) throw new Error("no pay button on the page");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.getByRole("textbox", { name: "Instruction" }).fill("Say 'Place order' instead of 'Pay'");
  await page.screenshot({ path: `${out}mark-pay-button.png` });
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByText(/Sent findings \(1\)/).waitFor();
  await page.screenshot({ path: `${out}sent-no-session.png` });
} finally {
  await browser.close();
}
