// `tool-tester run NAME --watch` and `tool-tester dev`'s usage errors, through the built bin.
import { type ChildProcess, spawn } from "node:child_process"
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

const echoPlugin = (prefix: string) => `import { tool } from "@opencode-ai/plugin"

export const Echo = async () => ({
  tool: {
    echo: tool({
      description: "Echoes a word",
      args: { word: tool.schema.string() },
      async execute(args) {
        return "${prefix} " + args.word
      },
    }),
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
    await endsAfterBothRuns(child, outputs)
  })
  test.each([
    ["--plugin ./echo-plugin.ts", "echo-plugin.ts", {}, ["--plugin", "./echo-plugin.ts"]],
    [
      'opencode.json\'s "plugin": ["./src/echo-plugin.ts"]',
      "src/echo-plugin.ts",
      { "opencode.json": JSON.stringify({ plugin: ["./src/echo-plugin.ts"] }) },
      [],
    ],
  ])("%s: a save of the plugin file runs the call again", async (_name, file, files, pluginArgs) => {
    const project = makeProject(files)
    cleanups.push(project.remove)
    // In the project folder, outside every folder watched for tools and plugins.
    writeTool(project.directory, file, echoPlugin("first"))
    const child = spawn(
      process.execPath,
      [
        path.join(packageRoot, "bin.js"),
        ...["run", "echo", "word=hi", "--watch", "--no-global", "--json"],
        ...pluginArgs,
      ],
      { cwd: project.directory, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    )
    cleanups.push(() => child.exitCode === null && child.kill("SIGKILL"))
    const outputs: string[] = []
    let buffered = ""
    const second = new Promise<void>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        buffered += chunk
        const lines = buffered.split("\n")
        buffered = lines.pop() ?? ""
        for (const line of lines) outputs.push((JSON.parse(line) as { output: string }).output)
        if (outputs.length >= 2) resolve()
      })
    })
    const first = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()))
    await first
    // Saving again until the second report arrives keeps the test free of timing; a watcher that
    // does not see the file never reports again: the test gives up after 60 s of saves.
    let saves = 0
    const saver = setInterval(() => {
      saves++
      writeTool(project.directory, file, echoPlugin("second"))
    }, 500)
    const gaveUp = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (saves < 120) return
        clearInterval(check)
        resolve()
      }, 500)
      cleanups.push(() => clearInterval(check))
    })
    await Promise.race([second, gaveUp])
    clearInterval(saver)
    await endsAfterBothRuns(child, outputs)
  })
})

describe("tool-tester dev usage", { timeout: 60_000 }, () => {
  test("a port that is not a number is a usage error", async () => {
    const result = await runCli(["dev", "--port", "eighty", "--no-open"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('--port needs a port number from 0 to 65535, not "eighty"')
  })
})

/** Ctrl-C ends `run --watch` with exit 0, after a first report of the first code and a last of the saved one. */
async function endsAfterBothRuns(child: ChildProcess, outputs: string[]): Promise<void> {
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
  child.kill("SIGINT")
  expect(await exited).toBe(0)
  expect(outputs[0]).toBe("first hi")
  expect(outputs.at(-1)).toBe("second hi")
}
