// Playwright's `toHaveScreenshot` on the page of bench/visual-compare.sh (tests/fixtures/web/
// visual.html, red box, clock masked), the peer of tests/fixtures/suites/visual.acl.
const { test, expect } = require('@playwright/test');

test('box', async ({ page }) => {
  await page.goto('/visual.html?box=red');
  await expect(page).toHaveScreenshot('box.png', { mask: [page.locator('#clock')] });
});
