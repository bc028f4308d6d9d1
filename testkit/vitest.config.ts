import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@a3s-lab\/testkit\/overlay$/, replacement: fileURLToPath(new URL("./src/overlay/index.ts", import.meta.url)) },
      { find: /^@a3s-lab\/testkit\/react$/, replacement: fileURLToPath(new URL("./src/react/index.ts", import.meta.url)) },
      { find: /^@a3s-lab\/testkit$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
    ],
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
  },
});
