import { writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { fixture, jsonError, opencode, runCli, useTmpDir } from "../helpers.ts"

const hanging = fixture("e2e-hanging-tool")

describe("tool-tester e2e --call-timeout", { timeout: 180_000 }, () => {
  test("a --call-timeout that is not a positive whole number exits 1 naming the flag", async () => {
    const script = path.join(useTmpDir(), "script.json")
    writeFileSync(script, JSON.stringify({ turns: [{ calls: [{ tool: "hang" }] }] }))
    const result = await runCli(["e2e", "--dir", hanging, "--script", script, "--call-timeout", "0", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "USAGE",
      message: '--call-timeout needs a whole number of milliseconds from 1 to 2000000000 (about 23 days), not "0"',
    })
  })

  test.skipIf(!opencode.binary)(
    `stops opencode when a call runs past it, counted from when the model asked: exit 5, the call named${opencode.reason ? ` (${opencode.reason})` : ""}`,
    async () => {
      const script = path.join(useTmpDir(), "script.json")
      writeFileSync(script, JSON.stringify({ turns: [{ calls: [{ tool: "hang" }] }] }))
      const result = await runCli([
        "e2e",
        "--dir",
        hanging,
        "--script",
        script,
        "--opencode",
        opencode.binary!,
        "--timeout",
        "170000",
        "--call-timeout",
        "3000",
        "--json",
      ])
      expect(result.exitCode, result.stderr).toBe(5)
      expect(jsonError(result)).toMatchObject({
        code: "TOOL_TIMEOUT",
        message: expect.stringContaining("hang (call_1) did not finish within 3000 ms of the model asking for it"),
      })
      // The partial result is still printed: the call was sent, and never answered.
      const partial = JSON.parse(result.stdout) as { requests: Array<{ kind: string }> }
      expect(partial.requests.filter((request) => request.kind === "main")).toHaveLength(1)
    },
  )
})
