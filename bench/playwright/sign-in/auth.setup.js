// The setup project of the sign-in benchmark: sign in once through the form, save the state.
const { test: setup, expect } = require('@playwright/test');

setup('auth-setup', async ({ page }) => {
  await page.goto('/login-page');
  await page.getByLabel('User').fill('alice');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('signed in as alice')).toBeVisible();
  await page.context().storageState({ path: process.env.BENCH_STATE });
});
