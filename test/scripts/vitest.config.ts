import { defineProject } from "vitest/config"

// The repository's own scripts (scripts/*.mjs): what the test command and CI run around the tests.
export default defineProject({
  test: {
    name: "scripts",
    include: ["**/*.test.ts"],
    setupFiles: ["../fail-on-console.ts"],
  },
})
