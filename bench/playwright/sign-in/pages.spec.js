// Twenty pages behind the login, each starting from the setup project's storage state (the
// `pages` project of sign-in.config.js depends on `setup`).
const { test, expect } = require('@playwright/test');

for (let i = 0; i < 20; i++) {
  test(`page-${String(i).padStart(2, '0')}`, async ({ page }) => {
    await page.goto(`/page/${i}`);
    await expect(page.getByText('signed in as alice')).toBeVisible();
  });
}
