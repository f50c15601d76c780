// `tool-tester run NAME --watch` and `tool-tester dev`'s usage errors, through the built bin.
import { spawn } from "node:child_process"
import path from "node:path"
import { afterEach, describe, expect, test } from "vitest"
import { packageRoot, runCli } from "../helpers.ts"
import { makeProject, writeTool } from "./_inspector.ts"

const echo = (prefix: string) => `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Echoes a word",
  args: { word: tool.schema.string() },
  async execute(args) {
    return "${prefix} " + args.word
  },
})
`

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

describe("run --watch", { timeout: 120_000 }, () => {
  test("runs the call again after a save, with the edited code, until Ctrl-C", async () => {
    const project = makeProject({ ".opencode/tools/echo.ts": echo("first") })
    cleanups.push(project.remove)
    const child = spawn(
      process.execPath,
      [path.join(packageRoot, "bin.js"), "run", "echo", "word=hi", "--watch", "--no-global", "--json"],
      { cwd: project.directory, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    )
    cleanups.push(() => child.exitCode === null && child.kill("SIGKILL"))
    const outputs: string[] = []
    let waiting: (() => void) | undefined
    let buffered = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk
      const lines = buffered.split("\n")
      buffered = lines.pop() ?? ""
      for (const line of lines) outputs.push((JSON.parse(line) as { output: string }).output)
      waiting?.()
    })
    const reports = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (outputs.length >= count) resolve()
        }
        waiting = check
        check()
      })
    await reports(1)
    // The watcher is up once the first report is out and its line on stderr is written; a save
    // after that is seen. Saving again until the second report arrives keeps the test free of timing.
    const saver = setInterval(() => writeTool(project.directory, ".opencode/tools/echo.ts", echo("second")), 500)
    await reports(2)
    clearInterval(saver)
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
    child.kill("SIGINT")
    expect(await exited).toBe(0)
    expect(outputs[0]).toBe("first hi")
    expect(outputs.at(-1)).toBe("second hi")
  })
})

describe("tool-tester dev usage", { timeout: 60_000 }, () => {
  test("a port that is not a number is a usage error", async () => {
    const result = await runCli(["dev", "--port", "eighty", "--no-open"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('--port needs a port number from 0 to 65535, not "eighty"')
  })
})
