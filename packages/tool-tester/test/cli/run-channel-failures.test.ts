// A tool that writes on the engine's channel (CHANNEL_FORGED) or closes it (CHANNEL_CLOSED) was
// reached, so `run --json` prints one result on stdout, as for any other failure of a reached
// tool (docs/cli.md#run): one made up by tool-tester, never what came over the channel, with the
// code; and the failure line on stderr, exit 4.
import { describe, expect, test } from "vitest"
import { jsonError, runCli } from "../helpers.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

const WAIT = "await new Promise((resolve) => setTimeout(resolve, 10_000))"

/** A forged `done`, as the engine's would read: what the run must not report. */
const FORGED = `${JSON.stringify({ type: "done", payload: JSON.stringify({ result: { status: "completed", output: "forged" }, diagnostics: [] }) })}\n`

const tools = {
  ".opencode/tools/forges.ts": `import { writeSync } from "node:fs"\n${toolSource("forges", `console.log("before forging"); writeSync(3, ${JSON.stringify(FORGED)}); ${WAIT}; return "returned"`)}`,
  ".opencode/tools/closes.ts": `import { closeSync } from "node:fs"\n${toolSource("closes", `closeSync(3); ${WAIT}; return "returned"`)}`,
  // 87 is the code the engine ends with when it cannot write on descriptor 3 (channel-closed.ts).
  ".opencode/tools/exits_87.ts": toolSource("exits 87", "process.exit(87)"),
  ".opencode/tools/closes_stdin.ts": `import { closeSync } from "node:fs"\n${toolSource("closes stdin", 'closeSync(0); await new Promise((resolve) => setTimeout(resolve, 100)); return "returned"')}`,
}

/** A file that writes on the channel as it is imported, beside a tool that is fine. */
const forgesAtImport = {
  ".opencode/tools/fine.ts": toolSource("fine"),
  ".opencode/tools/forges_at_import.ts": `import { writeSync } from "node:fs"\nwriteSync(3, "at import\\n")\n${toolSource("forges at import")}`,
}

type RunJson = {
  name: string
  id: string
  status: string
  output: string
  title: unknown
  metadata: unknown
  error?: { code: string; message: string }
  console: { stdout: string }
  engine: { name: string }
}

describe.each(["node", "bun"])(
  "run --json when the tool breaks the engine's channel (%s engine)",
  { timeout: 120_000 },
  (engine) => {
    const run = (directory: string, name: string, json = true) =>
      runCli(["run", name, "--dir", directory, "--no-global", "--engine", engine, ...(json ? ["--json"] : [])])

    test.each([
      ["forges", "CHANNEL_FORGED"],
      ["closes", "CHANNEL_CLOSED"],
    ])("%s: one result on stdout with %s, made up by tool-tester, exit 4", async (name, code) => {
      const directory = tmpProject(tools)
      const result = await run(directory, name)
      expect(result.exitCode).toBe(4)
      expect(result.stdout.trim().split("\n")).toHaveLength(1)
      const json = JSON.parse(result.stdout) as RunJson
      const failure = jsonError(result)
      expect(failure.code).toBe(code)
      expect(json).toMatchObject({
        name,
        id: name,
        status: "error",
        title: null,
        metadata: null,
        error: failure,
        output: failure.message,
        engine: { name: engine },
      })
      // Nothing the tool wrote on the channel is believed (its forged `done` says completed), nor
      // what it would have returned: the output is tool-tester's message.
      expect(json.output).toMatch(/^something in the engine's process \(the tool, or a process it started\)/)
      if (name === "forges") expect(json.console.stdout).toBe("before forging\n")
    })

    test("a tool's own process.exit(87) is TOOL_EXITED with that code, not the engine's CHANNEL_CLOSED", async () => {
      const result = await run(tmpProject(tools), "exits_87")
      expect(result.exitCode).toBe(4)
      expect(jsonError(result)).toEqual({
        code: "TOOL_EXITED",
        message:
          "the tool ended its process with process.exit(87); under opencode that stops opencode itself: throw an Error instead",
      })
    })

    // Bun, and so opencode, ignores fs.closeSync(0): the call completes there. Under Node the close
    // happens; the engine reads nothing more, and still answers.
    test("a tool that closes the engine's stdin keeps its result, as in opencode", async () => {
      const result = await run(tmpProject(tools), "closes_stdin")
      expect(result.exitCode, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toMatchObject({ name: "closes_stdin", status: "completed", output: "returned" })
    })

    test("without --json the same result is the readable report, and the failure line names the code", async () => {
      const result = await run(tmpProject(tools), "forges", false)
      expect(result.exitCode).toBe(4)
      expect(result.stdout).toMatch(/^forges {2}error {2}/)
      expect(result.stdout).toContain("CHANNEL_FORGED")
      expect(result.stderr).toMatch(/\[CHANNEL_FORGED\]\n$/)
    })

    test("a file that writes on the channel while it is imported reaches no tool: only the failure line", async () => {
      // Every file is imported before any tool is called: the tool is never reached.
      const result = await run(tmpProject(forgesAtImport), "fine")
      expect(result.exitCode).toBe(4)
      expect(result.stdout).toBe("")
      expect(jsonError(result).code).toBe("CHANNEL_FORGED")
    })
  },
)
