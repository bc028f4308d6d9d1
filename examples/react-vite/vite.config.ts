// Vite for the example. a3sTest() serves the Test Kit's repair endpoint
// (/__a3s-test/repairs, the page's `repairEndpoint`) and forwards it to `a3s-test dev`.
// The Test Kit is linked from the repository (file:../../testkit), so React is deduplicated:
// the link's own node_modules must not give the page a second copy of React.
import react from "@vitejs/plugin-react";
import { a3sTest } from "@a3s-lab/testkit/vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react(), a3sTest()],
  resolve: { dedupe: ["react", "react-dom"] },
  server: { host: "127.0.0.1", port: 5173, strictPort: true },
  preview: { host: "127.0.0.1", port: 4173, strictPort: true },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    setupFiles: ["./src/test-setup.ts"],
  },
});
