// `--engine bun` with no opencode: npm's Bun is downloaded into the cache. The line before it says
// what was not found; with a bun on PATH (a Bun user's machine) it is not "no Bun found": it names
// the flag that would use that bun instead of downloading another.
import { describe, expect, test, vi } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { installEngine } from "../../src/cli/engine-option.ts"
import { programOnPath } from "../support/program-on-path.ts"

// No download here: the install itself is the cache's (tested with the bun engine's tests).
vi.mock("../../src/engine-client/choose-engine.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/engine-client/choose-engine.ts")>()),
  chooseEngine: async () => ({ selection: { name: "node" } }),
}))

async function installLine(env: Record<string, string | undefined>): Promise<string> {
  let stderr = ""
  const io = {
    cwd: process.cwd(),
    env,
    writeError: (text: string) => {
      stderr += text
    },
  } as Partial<CliIO> as CliIO
  await installEngine(["run", "greet", "--engine", "bun"], io)
  return stderr
}

describe("the line before npm's Bun is installed", () => {
  test("with nothing on PATH, no opencode or Bun was found", async () => {
    expect(await installLine({ PATH: "" })).toBe(
      "tool-tester: no opencode or Bun found; installing npm's bun into tool-tester's cache (once)...\n",
    )
  })

  test("with a bun on PATH, it names --engine-binary bun", async () => {
    const { env } = programOnPath("bun")
    expect(await installLine(env)).toBe(
      "tool-tester: no opencode found, and a bun on PATH is used only with --engine-binary bun; installing npm's bun into tool-tester's cache (once)...\n",
    )
  })
})
