// Playwright Test configuration for bench/sign-in-once.sh: a setup project that signs in once and
// a `pages` project that depends on it and starts from its storage state — Playwright's
// documented pattern. Same browser, workers and base URL as the a3s-test runs.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: './sign-in',
  workers: Number(process.env.BENCH_JOBS || 2),
  retries: 0,
  fullyParallel: true,
  reporter: [['line']],
  timeout: 60_000,
  use: {
    baseURL: process.env.BENCH_BASE_URL,
    headless: true,
    viewport: { width: 1280, height: 720 },
    screenshot: 'only-on-failure',
    trace: 'off',
    video: 'off',
    actionTimeout: 5_000,
    launchOptions: {
      executablePath: process.env.BENCH_BROWSER || '/usr/lib/chromium/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu'],
    },
  },
  projects: [
    { name: 'setup', testMatch: /auth\.setup\.js/ },
    {
      name: 'pages',
      testMatch: /pages\.spec\.js/,
      dependencies: ['setup'],
      use: { storageState: process.env.BENCH_STATE },
    },
  ],
});
