// An --engine-binary that starts and never answers (it is no Bun, or it hangs) never says it is up,
// so no tool file was loaded: the load bound blames the binary (ENGINE_FAILED, exit 1), not a
// tool file's top-level await (TOOL_TIMEOUT), which is what a file that never finishes loading
// gets once the engine is up.
import { chmodSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { fixture, jsonError, runCli, useTmpDir } from "../helpers.ts"

const why = process.platform === "win32" ? "the stand-in binary is a POSIX shell script" : undefined

/** A program that starts and never answers. */
function silentBinary(): string {
  const binary = path.join(useTmpDir("never-answers-"), "opencode")
  writeFileSync(binary, "#!/bin/sh\nexec sleep 600\n")
  chmodSync(binary, 0o755)
  return binary
}

const env = { TOOL_TESTER_LOAD_TIMEOUT_MS: "3000" }

describe.skipIf(why !== undefined)(
  `an --engine-binary that never answers${why ? ` (skipped: ${why})` : ""}`,
  { timeout: 120_000 },
  () => {
    test.each(["list", "doctor"])(
      "%s blames the binary after the load bound: ENGINE_FAILED, exit 1",
      async (command) => {
        const binary = silentBinary()
        const args = [command, "--dir", fixture("cli-basic"), "--no-global", "--json", "--engine-binary", binary]
        const result = await runCli(args, { env })
        expect(result.exitCode).toBe(1)
        expect(result.stdout).toBe("")
        const error = jsonError(result)
        expect(error.code).toBe("ENGINE_FAILED")
        expect(error.message).toContain(`the bun engine ${binary} did not start within 3000 ms`)
        // The bound was made shorter here: the message names it, the likelier cause.
        expect(error.message).toContain(
          "(the bound TOOL_TESTER_LOAD_TIMEOUT_MS sets; the default is 60000 ms: raise it, or unset it)",
        )
        expect(error.message).toContain("give --engine-binary an opencode or bun executable, or use --engine node")
        expect(error.message).not.toContain("top-level await")
      },
    )

    test("run says the same (its load bound is at least --timeout)", async () => {
      const binary = silentBinary()
      const args = ["run", "greet", "--dir", fixture("cli-basic"), "--no-global", "--timeout", "1000"]
      const result = await runCli([...args, "--engine-binary", binary], { env })
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe("")
      expect(result.stderr).toMatch(/did not start within 3000 ms .*\[ENGINE_FAILED\]\n$/)
    })
  },
)
