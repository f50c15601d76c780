import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "plugin",
    include: ["test/**/*.test.ts"],
    setupFiles: ["../../test/fail-on-console.ts"],
    // Projects do not inherit the root's timeouts: spawning built bins and Bun, and loading
    // TypeScript tool files, is slow on a loaded 2-core machine, so every test gets a generous bound.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
})
