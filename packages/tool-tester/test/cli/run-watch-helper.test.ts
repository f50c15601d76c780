// `run --watch` runs the call again on a save of a helper module the tool imports from outside the
// tool folders (.opencode/lib/), under both engines: the engine that ran says which files the load
// imported, and which ones its call imported (one that failed to compile included); a helper removed
// while a run ran, which no watch saw go, runs the call once more. In this process, through the
// command line's own code, with a Ctrl-C of its own.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { afterEach, expect, test } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { makeProject, writeTool } from "../inspector/_inspector.ts"

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
    const watching = await runWatch(project.directory, engine)
    const { outputs } = watching
    await watching.reports(() => outputs.length >= 1, 60_000)
    expect(outputs[0]).toBe("first lazy")
    // The watcher is up once the first report is out and the interrupt is listened for; a save after
    // that is seen. Saving until the next report keeps the test free of timing; without a watch on
    // the file no report comes: the test gives up after 30 s of saves.
    await watching.listening
    /** Saves `name` in .opencode/lib until a report shows `expected` (or 30 s passed); that report's output. */
    const savedUntil = async (name: string, content: string, expected: string) => {
      const file = path.join(project.directory, ".opencode", "lib", name)
      const saver = setInterval(() => writeFileSync(file, content), 500)
      cleanup.push(() => clearInterval(saver))
      await watching.reports(() => outputs.at(-1) === expected, 30_000)
      clearInterval(saver)
      return outputs.at(-1)
    }
    // Imported by the call, not the load: the run says so, and the watch follows. First, so that no
    // run a save of another file started (one that landed while its run went runs once more) can
    // read this save without a watch on it.
    expect(await savedUntil("lazy.ts", lazy("lazier"), "first lazier")).toBe("first lazier")
    expect(await savedUntil("helper.ts", helper("second"), "second lazier")).toBe("second lazier")
    expect(await watching.interrupt()).toBe(0)
  },
)

test("a helper saved while the first run ran (after the run read it) runs the call once more", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({})
  cleanup.push(project.remove)
  // The helper saves itself as it loads, once: as an author who saves a moment after starting
  // run --watch, before any watch exists. No watch sees that save; the first watch reads its time.
  const file = path.join(project.directory, ".opencode", "lib", "helper.ts")
  const once = path.join(project.directory, "saved-once")
  writeTool(
    project.directory,
    ".opencode/tools/echo.ts",
    `import { tool } from "@opencode-ai/plugin"
import { word } from "../lib/helper.ts"
export default tool({ description: "Says the helper's word", args: {}, async execute() { return word() } })
`,
  )
  writeTool(
    project.directory,
    ".opencode/lib/helper.ts",
    `import { existsSync, writeFileSync } from "node:fs"
if (!existsSync(${JSON.stringify(once)})) {
  writeFileSync(${JSON.stringify(once)}, "")
  writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(helper("saved during the run"))})
}
${helper("first")}`,
  )
  const watching = await runWatch(project.directory, "node")
  const { outputs } = watching
  await watching.reports(() => outputs.length >= 1, 60_000)
  expect(outputs[0]).toBe("first")
  await watching.reports(() => outputs.at(-1) === "saved during the run", 20_000)
  expect(outputs.at(-1)).toBe("saved during the run")
  expect(await watching.interrupt()).toBe(0)
})

test.each(["bun", "node"])(
  "--engine %s: the save that fixes a helper execute imports runs the call again; a removed helper does too",
  { timeout: 120_000 },
  async (engine) => {
    const project = makeProject({
      ".opencode/tools/echo.ts": echo,
      ".opencode/lib/helper.ts": helper("first"),
      // Imported inside execute, and does not compile: Bun's module cache has no module that failed.
      ".opencode/lib/lazy.ts": `export const lazy = (\n`,
    })
    cleanup.push(project.remove)
    const watching = await runWatch(project.directory, engine)
    const { outputs } = watching
    await watching.reports(() => outputs.length >= 1, 60_000)
    expect(outputs[0]).toBe("TOOL_THREW")
    await watching.listening
    const lib = (name: string) => path.join(project.directory, ".opencode", "lib", name)
    // Saved once: without a watch on it, no report comes within the bound.
    writeFileSync(lib("lazy.ts"), lazy("fixed"))
    await watching.reports(() => outputs.at(-1) === "first fixed", 30_000)
    expect(outputs.at(-1)).toBe("first fixed")

    // A save imports a new helper, from a folder no watch watched, and the helper removes itself as
    // it is imported: removed while that run ran, after the engine read it. No watch saw it go; the
    // watch that takes it on finds it gone and runs once more, which reports the failed import.
    const gone = path.join(project.directory, ".opencode", "other", "gone.ts")
    writeTool(
      project.directory,
      ".opencode/other/gone.ts",
      `import { rmSync } from "node:fs"\nrmSync(${JSON.stringify(gone)})\nexport const gone = "gone"\n`,
    )
    const before = outputs.length
    writeFileSync(lib("helper.ts"), `import { gone } from "../other/gone.ts"\nexport const word = () => gone\n`)
    await watching.reports(() => outputs.slice(before).includes("IMPORT_FAILED"), 30_000)
    // As opencode: the tool is gone from the list (the call gets opencode's text), the file's error said.
    const [first, ...rerun] = outputs.slice(before)
    expect(first).toBe("gone fixed")
    expect(rerun).toEqual([expect.stringContaining("unavailable tool 'echo'"), "IMPORT_FAILED"])
    expect(await watching.interrupt()).not.toBe(0)
  },
)

/**
 * `run echo --watch --json` in `directory` under `engine`, in this process: the outputs reported
 * so far, a wait for them (up to a bound, then as they are), and the Ctrl-C that ends it.
 */
async function runWatch(directory: string, engine: string) {
  const savedCwd = process.cwd()
  cleanup.push(() => process.chdir(savedCwd))
  process.chdir(directory)
  const outputs: string[] = []
  let reported: (() => void) | undefined
  let interrupt: (() => void) | undefined
  const io: CliIO = {
    cwd: directory,
    env: { ...process.env, NO_COLOR: "1" },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    // A call's output, or the code of its error (a failed load's is on stderr).
    write: (text) => {
      for (const line of text.split("\n").filter(Boolean)) outputs.push(outputOf(line))
      reported?.()
    },
    writeError: (text) => {
      for (const line of text.split("\n").filter((line) => line.startsWith('{"error"'))) outputs.push(outputOf(line))
      reported?.()
    },
    chdir: (folder) => process.chdir(folder),
    onInterrupt: (handler) => {
      interrupt = () => handler("SIGINT")
      return () => {
        interrupt = undefined
      }
    },
  }
  const args = ["run", "echo", "--watch", "--no-global", "--json", "--engine", engine]
  const { startEngineEarly } = await import("../../src/cli/engine-option.ts")
  const { runCommandLine } = await import("../../src/cli/_run-command-line.ts")
  const exited = runCommandLine(args, io, await startEngineEarly(args, io.env, directory))
  // Ended by the test's end too, when a step failed before its Ctrl-C.
  cleanup.push(async () => {
    interrupt?.()
    await exited
  })
  return {
    outputs,
    /** Until `done()` holds after a report, or `ms` passed. */
    reports: (done: () => boolean, ms: number) =>
      new Promise<void>((resolve) => {
        const bound = setTimeout(resolve, ms)
        reported = () => done() && (clearTimeout(bound), resolve())
        reported()
      }),
    /** Once run --watch listens for Ctrl-C (its watch is up). */
    listening: new Promise<void>((resolve) => {
      const check = setInterval(() => interrupt && (clearInterval(check), resolve()), 20)
    }),
    interrupt: () => {
      interrupt?.()
      return exited
    },
  }
}

function outputOf(line: string): string {
  const { output, error } = JSON.parse(line) as { output?: string; error?: { code: string } }
  return error?.code ?? output ?? line
}
