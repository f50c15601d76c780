// `run --watch` runs the call again on a save of a helper module the tool imports from outside the
// tool folders (.opencode/lib/), under both engines: the engine that ran says which files the load
// imported. In this process, through the command line's own code, with a Ctrl-C of its own.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { afterEach, expect, test } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { makeProject } from "../inspector/_inspector.ts"

const echo = `import { tool } from "@opencode-ai/plugin"
import { word } from "../lib/helper.ts"
export default tool({ description: "Says the helper's word", args: {}, async execute() { return word() } })
`
const helper = (word: string) => `export const word = () => "${word}"\n`

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

test.each(["bun", "node"])(
  "--engine %s: a save of an imported helper runs the call again",
  {
    timeout: 120_000,
  },
  async (engine) => {
    const project = makeProject({ ".opencode/tools/echo.ts": echo, ".opencode/lib/helper.ts": helper("first") })
    cleanup.push(project.remove)
    const savedCwd = process.cwd()
    cleanup.push(() => process.chdir(savedCwd))
    process.chdir(project.directory)

    const outputs: string[] = []
    let reported: (() => void) | undefined
    let interrupt: (() => void) | undefined
    const io: CliIO = {
      cwd: project.directory,
      env: { ...process.env, NO_COLOR: "1" },
      stdoutIsTTY: false,
      stderrIsTTY: false,
      write: (text) => {
        for (const line of text.split("\n").filter(Boolean))
          outputs.push((JSON.parse(line) as { output: string }).output)
        reported?.()
      },
      writeError: () => {},
      chdir: (directory) => process.chdir(directory),
      onInterrupt: (handler) => {
        interrupt = () => handler("SIGINT")
        return () => {
          interrupt = undefined
        }
      },
    }
    const reports = (count: number) =>
      new Promise<void>((resolve) => {
        reported = () => outputs.length >= count && resolve()
        reported()
      })
    const args = ["run", "echo", "--watch", "--no-global", "--json", "--engine", engine]
    const { startEngineEarly } = await import("../../src/cli/engine-option.ts")
    const { runCommandLine } = await import("../../src/cli/_run-command-line.ts")
    const exited = runCommandLine(args, io, await startEngineEarly(args, io.env, project.directory))
    await reports(1)
    expect(outputs[0]).toBe("first")
    // The watcher is up once the first report is out and the interrupt is listened for; a save after
    // that is seen. Saving until the second report keeps the test free of timing; without a watch
    // on the helper no report comes: the test gives up after 30 s of saves.
    await new Promise<void>((resolve) => {
      const check = setInterval(() => interrupt && (clearInterval(check), resolve()), 20)
    })
    const file = path.join(project.directory, ".opencode", "lib", "helper.ts")
    const saver = setInterval(() => writeFileSync(file, helper("second")), 500)
    cleanup.push(() => clearInterval(saver))
    await Promise.race([reports(2), new Promise((resolve) => setTimeout(resolve, 30_000))])
    clearInterval(saver)
    interrupt?.()
    expect(await exited).toBe(0)
    // One save may land while its run goes: that one runs once more.
    expect(outputs.length).toBeGreaterThanOrEqual(2)
    expect(outputs.at(-1)).toBe("second")
  },
)
