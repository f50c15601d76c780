// `run --watch` runs the call again on a save of a helper module the tool imports from outside the
// tool folders (.opencode/lib/), under both engines: the engine that ran says which files the load
// imported. In this process, through the command line's own code, with a Ctrl-C of its own.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { afterEach, expect, test } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { makeProject } from "../inspector/_inspector.ts"

// lazy.ts is imported only when the tool runs (as a heavy dependency often is): unknown at load.
const echo = `import { tool } from "@opencode-ai/plugin"
import { word } from "../lib/helper.ts"
export default tool({ description: "Says the helpers' words", args: {}, async execute() {
  const { lazy } = await import("../lib/lazy.ts")
  return word() + " " + lazy
} })
`
const lazy = (word: string) => `export const lazy = "${word}"\n`
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
    const project = makeProject({
      ".opencode/tools/echo.ts": echo,
      ".opencode/lib/helper.ts": helper("first"),
      ".opencode/lib/lazy.ts": lazy("lazy"),
    })
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
    expect(outputs[0]).toBe("first lazy")
    // The watcher is up once the first report is out and the interrupt is listened for; a save after
    // that is seen. Saving until the next report keeps the test free of timing; without a watch on
    // the file no report comes: the test gives up after 30 s of saves.
    await new Promise<void>((resolve) => {
      const check = setInterval(() => interrupt && (clearInterval(check), resolve()), 20)
    })
    /** Saves `name` in .opencode/lib until a report shows `expected` (or 30 s passed); that report's output. */
    const savedUntil = async (name: string, content: string, expected: string) => {
      const file = path.join(project.directory, ".opencode", "lib", name)
      const saver = setInterval(() => writeFileSync(file, content), 500)
      cleanup.push(() => clearInterval(saver))
      const shown = new Promise<void>((resolve) => {
        reported = () => outputs.at(-1) === expected && resolve()
      })
      await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, 30_000))])
      clearInterval(saver)
      return outputs.at(-1)
    }
    // Imported by the call, not the load: the run says so, and the watch follows. First, so that no
    // run a save of another file started (one that landed while its run went runs once more) can
    // read this save without a watch on it.
    expect(await savedUntil("lazy.ts", lazy("lazier"), "first lazier")).toBe("first lazier")
    expect(await savedUntil("helper.ts", helper("second"), "second lazier")).toBe("second lazier")
    interrupt?.()
    expect(await exited).toBe(0)
  },
)
