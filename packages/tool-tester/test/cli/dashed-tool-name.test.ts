// A tool whose name starts with a dash (a file `.opencode/tools/-dash.ts`) is read by the parser as
// options: where the tool name goes, the usage error says to give it after `--`, which works.
import { describe, expect, test } from "vitest"
import { jsonError, runCli } from "../helpers.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

const AFTER_DASHES = "a tool name that starts with a dash goes after --, once the options are given"

describe("a tool name that starts with a dash", { timeout: 60_000 }, () => {
  test("run -dash is a usage error that says to write run -- -dash, which runs the tool", async () => {
    const directory = tmpProject({ ".opencode/tools/-dash.ts": toolSource("dashed", 'return "dashed ran"') })
    const options = ["--dir", directory, "--no-global", "--engine", "node", "--json"]
    const refused = await runCli(["run", "-dash", ...options])
    expect(refused.exitCode).toBe(1)
    expect(refused.stdout).toBe("")
    expect(jsonError(refused)).toEqual({
      code: "USAGE",
      message: `unknown option -d (in -dash); ${AFTER_DASHES}: npx @opencode-ai/tool-tester run [options] -- -dash (see npx @opencode-ai/tool-tester run --help)`,
    })
    // After the options too: the word stands where the tool name goes.
    const late = await runCli(["run", ...options, "-dash"])
    expect(jsonError(late).message).toContain(`${AFTER_DASHES}: npx @opencode-ai/tool-tester run [options] -- -dash`)

    const ran = await runCli(["run", ...options, "--", "-dash"])
    expect(ran.exitCode).toBe(0)
    expect(JSON.parse(ran.stdout)).toMatchObject({ id: "-dash", status: "completed", output: "dashed ran" })
  })

  test("a word whose first letter is a known short option is not taken for that option (-help)", async () => {
    const result = await runCli(["run", "-help", "--json"])
    expect(jsonError(result)).toEqual({
      code: "USAGE",
      message: `unknown option -e (in -help); ${AFTER_DASHES}: npx @opencode-ai/tool-tester run [options] -- -help (see npx @opencode-ai/tool-tester run --help)`,
    })
  })

  test("fuzz says the same where its tool name goes", async () => {
    const result = await runCli(["fuzz", "-dash", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).message).toContain(`${AFTER_DASHES}: npx @opencode-ai/tool-tester fuzz [options] -- -dash`)
  })

  test("fuzz's replay line gives such a name last, after --, so that pasted it runs the same search", async () => {
    const directory = tmpProject({ ".opencode/tools/-dash.ts": toolSource("dashed", 'throw new TypeError("always")') })
    const found = await runCli([
      "fuzz",
      "--dir",
      directory,
      "--no-global",
      "--runs",
      "3",
      "--seed",
      "7",
      "--json",
      "--",
      "-dash",
    ])
    expect(found.exitCode, found.stderr).toBe(4)
    const report = JSON.parse(found.stdout) as { replay: string; failures: unknown[] }
    expect(report.replay).toMatch(/ --seed 7 --runs 3 --timeout \d+ -- -dash$/)
    const words = report.replay.replace(/^npx @opencode-ai\/tool-tester /, "").split(" ")
    const replayed = await runCli(words)
    expect(replayed.exitCode, replayed.stderr).toBe(4)
    expect(replayed.stdout).toContain(`replay: ${report.replay}`)
  })

  test("after the tool name, an unknown option is still only an unknown option", async () => {
    const result = await runCli(["run", "greet", "-x", "--json"])
    expect(jsonError(result).message).toBe("unknown option -x (see npx @opencode-ai/tool-tester run --help)")
    const long = await runCli(["run", "greet", "--city", "Paris", "--json"])
    expect(jsonError(long).message).not.toContain("--,")
  })
})
