import { expect, test } from "vitest"
import { runCli, useTmpDir } from "./helpers.ts"

// One switch for both CLIs (tool-tester's cli/_color.ts, copied here): colour on a terminal, off
// with NO_COLOR, on anywhere with FORCE_COLOR; decided per command line from the CliIO it is given.
const ESC = String.fromCharCode(27)

test("FORCE_COLOR colours the summary even off a terminal; NO_COLOR wins over it", async () => {
  const forced = await runCli(["hello", "--yes"], { cwd: useTmpDir(), env: { NO_COLOR: undefined, FORCE_COLOR: "1" } })
  expect(forced.code).toBe(0)
  expect(forced.stdout).toContain(ESC)
  const both = await runCli(["hello", "--yes"], { cwd: useTmpDir(), env: { NO_COLOR: "1", FORCE_COLOR: "1" } })
  expect(both.code).toBe(0)
  expect(both.stdout).not.toContain(ESC)
})
