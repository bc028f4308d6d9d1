// Playwright Test configuration for bench/visual-compare.sh: one worker, Debian's Chromium,
// 1280×720, baselines kept in a folder the script chooses (BENCH_SNAPSHOTS), a JSON report with
// the duration of each step (the `toHaveScreenshot` expectation among them).
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: './visual',
  snapshotPathTemplate: `${process.env.BENCH_SNAPSHOTS || '/tmp/visual-snapshots'}/{arg}{ext}`,
  workers: 1,
  retries: 0,
  reporter: [['json']],
  timeout: 60_000,
  use: {
    baseURL: process.env.BENCH_BASE_URL || 'http://127.0.0.1:4173',
    headless: true,
    viewport: { width: 1280, height: 720 },
    trace: 'off',
    video: 'off',
    launchOptions: {
      executablePath: process.env.BENCH_BROWSER || '/usr/lib/chromium/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu'],
    },
  },
});
