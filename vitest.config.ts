import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "test/install", "test/scripts"],
    // Most tests wait on processes they spawned (the built bins, Bun, the real opencode): on a
    // 2-core machine the default of one worker ran the files one after another (545 s); three
    // overlap the waits (345 s).
    maxWorkers: 3,
    // Each project sets its own timeouts: projects do not inherit these.
  },
})
