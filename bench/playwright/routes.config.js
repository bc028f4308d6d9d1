// Playwright Test configuration for the route benchmark (routes/route-cost.spec.js): one worker,
// Debian's Chromium headless shell (the browser web/benches/routes.rs drives), line reporter.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: './routes',
  workers: 1,
  retries: 0,
  reporter: [['line']],
  timeout: 120_000,
  use: {
    headless: true,
    trace: 'off',
    video: 'off',
    launchOptions: {
      executablePath: process.env.BENCH_BROWSER || '/usr/lib/chromium/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu'],
    },
  },
});
