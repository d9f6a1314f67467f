import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Tests import workspace packages straight from their TypeScript sources.
  ssr: { resolve: { conditions: ["strictwire-source", ...defaultServerConditions] } },
  resolve: { conditions: ["strictwire-source"] },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "bench/test/**/*.test.ts",
      "examples/test/**/*.test.ts",
      "scripts/test/**/*.test.ts",
    ],
    globalSetup: ["./scripts/vitest-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
