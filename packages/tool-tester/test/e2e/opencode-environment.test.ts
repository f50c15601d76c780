import { afterEach, describe, expect, test } from "vitest"
import { opencodeEnvironment } from "../../src/e2e/sandbox-setup.ts"
import type { Sandbox } from "../../src/opencode/sandbox.ts"

const sandbox = {
  home: "/s/home",
  configHome: "/s/config",
  dataHome: "/s/data",
  cacheHome: "/s/cache",
  stateHome: "/s/state",
  tmp: "/s/tmp",
  project: "/s/project",
} as unknown as Sandbox

describe("the environment e2e gives opencode", () => {
  afterEach(() => {
    delete process.env["BUN_BE_BUN"]
  })

  test("leaves out BUN_BE_BUN, which would make the binary act as Bun (tool-tester run by `BUN_BE_BUN=1 opencode run`)", () => {
    process.env["BUN_BE_BUN"] = "1"
    const env = opencodeEnvironment(sandbox, "{}")
    expect(env).not.toHaveProperty("BUN_BE_BUN")
    expect(env["HOME"]).toBe("/s/home")
  })
})
