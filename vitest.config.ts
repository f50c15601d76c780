import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*"],
    // Each project sets its own timeouts: projects do not inherit these.
  },
})
