import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Tests import workspace packages straight from their TypeScript sources.
  // Vitest hands these to Node as --conditions, so "module" (a bundler's condition) is left out: with it,
  // Node loads a package's bundler build (the AWS SDK's has import paths without extensions).
  ssr: {
    resolve: { conditions: ["strictwire-source", ...defaultServerConditions.filter((c) => c !== "module")] },
  },
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
