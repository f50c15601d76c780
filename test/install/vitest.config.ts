import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "install",
    include: ["**/*.test.ts"],
    setupFiles: ["../fail-on-console.ts"],
    globalSetup: ["./global-setup.ts"],
    // Installs from the npm registry on a loaded 2-core machine take minutes: each test sets its own
    // bound, and nothing here is faster than a minute.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
