import { defineConfig } from "vitest/config";

// Real-Chromium smoke test against the built demo (run by `npm run test:browser`).
export default defineConfig({
  test: {
    environment: "node",
    include: ["browser/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
