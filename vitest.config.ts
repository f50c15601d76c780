import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*"],
    // Spawning built bins and loading TypeScript tool files is slow on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
