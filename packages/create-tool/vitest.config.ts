import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "create-tool",
    include: ["test/**/*.test.ts"],
    setupFiles: ["../../test/fail-on-console.ts"],
    globalSetup: ["./test/global-setup.ts"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
})
