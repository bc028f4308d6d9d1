// Playwright Test configuration for the side-by-side benchmark: Debian's Chromium (no downloaded
// browser), the same worker count and base URL as the a3s-test run, no retries, no traces (unless BENCH_TRACE says),
// no screenshots unless a test fails (like a3s-test).
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: './tests',
  workers: Number(process.env.BENCH_JOBS || 2),
  retries: 0,
  fullyParallel: true,
  reporter: [['line']],
  timeout: 60_000,
  use: {
    baseURL: process.env.BENCH_BASE_URL || 'http://127.0.0.1:4173',
    headless: true,
    viewport: { width: 1280, height: 720 },
    screenshot: 'only-on-failure',
    // BENCH_TRACE=on for bench/trace-vs-playwright.sh (step traces side by side).
    trace: process.env.BENCH_TRACE || 'off',
    video: 'off',
    actionTimeout: 5_000,
    launchOptions: {
      executablePath: process.env.BENCH_BROWSER || '/usr/lib/chromium/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu'],
    },
  },
});
