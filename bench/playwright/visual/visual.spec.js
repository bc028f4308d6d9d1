// Playwright's `toHaveScreenshot` on the page of bench/visual-compare.sh (tests/fixtures/web/
// visual.html, red box, clock masked), the peer of tests/fixtures/suites/visual.acl. The
// expectation's own duration is printed (the JSON report has no step timings).
const { test, expect } = require('@playwright/test');

test('box', async ({ page }) => {
  await page.goto('/visual.html?box=red');
  const started = performance.now();
  await expect(page).toHaveScreenshot('box.png', { mask: [page.locator('#clock')] });
  console.log(`toHaveScreenshot_ms=${(performance.now() - started).toFixed(1)}`);
});
