// Inside a test runner the library's bun engine writes what the tools print through this process's
// console, line by line, so that the runner shows it under the test that ran the tool (as it does
// under the node engine, whose tools run in this process); outside one it goes straight through.
import { PassThrough } from "node:stream"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import { consoleRelay, libraryConsole, pipeToConsole } from "../../src/engine-client/relayed-console.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

describe("the tools' console, through this process's console", () => {
  test("whole lines, each stream's; a partial line is held until its end, the other stream, or a flush", () => {
    const lines: string[] = []
    const relay = consoleRelay((stream, line) => lines.push(`${stream}:${line}`))
    relay.write("stdout", "one\ntwo\nload")
    relay.write("stdout", "ing ")
    expect(lines).toEqual(["stdout:one", "stdout:two"])
    relay.write("stdout", "done\n\nthree")
    relay.write("stderr", "warn\npart")
    relay.write("stderr", "")
    expect(lines).toEqual(["stdout:one", "stdout:two", "stdout:loading done", "stdout:", "stdout:three", "stderr:warn"])
    relay.flush()
    relay.flush()
    expect(lines.slice(6)).toEqual(["stderr:part"])
  })

  test("a line without an end is not held past 64 KiB", () => {
    const lengths: number[] = []
    const relay = consoleRelay((_stream, line) => lengths.push(line.length))
    for (let index = 0; index < 100; index++) relay.write("stdout", "x".repeat(1024))
    relay.flush()
    expect(lengths).toEqual([64 * 1024, 36 * 1024])
  })

  test("read from the pipes into console.log and console.error; the last partial line when they end", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    onTestFinished(() => {
      log.mockRestore()
      error.mockRestore()
    })
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    pipeToConsole({ stdout, stderr })
    stdout.write("a %s line\n")
    stderr.write("oops\n")
    stdout.end("last")
    stderr.end()
    await expect.poll(() => log.mock.calls).toEqual([["a %s line"], ["last"]])
    expect(error.mock.calls).toEqual([["oops"]])
  })

  test("the library relays only where something put its own console in place of Node's", () => {
    // vitest has: this test runs in it.
    expect(libraryConsole()).toBe("console")
    const runner = globalThis.console
    globalThis.console = process.getBuiltinModule("node:console")
    try {
      expect(libraryConsole()).toBe("inherit")
    } finally {
      globalThis.console = runner
    }
  })

  test("loadTools and runTool under the bun engine: what the tool prints reaches console.log and console.error, line by line", {
    timeout: 120_000,
  }, async () => {
    const directory = tmpProject({
      ".opencode/tools/shout.ts": `console.log("shout-at-import")\n${toolSource(
        "shout",
        'console.log("shout-says %s", args.word); console.error("shout-warns"); process.stdout.write("shout-partial "); return String(args.word).toUpperCase()',
        "{ word: tool.schema.string() }",
      )}`,
    })
    const printed: string[] = []
    const log = vi.spyOn(console, "log").mockImplementation((...values) => void printed.push(`log:${values.join(" ")}`))
    const error = vi
      .spyOn(console, "error")
      .mockImplementation((...values) => void printed.push(`error:${values.join(" ")}`))
    onTestFinished(() => {
      log.mockRestore()
      error.mockRestore()
    })
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({ directory, env, home, engine: "bun" })
    onTestFinished(() => closeProject(project))
    expect(project.engine.name).toBe("bun")
    // Read from pipes of their own, beside the engine's answers: usually before them, not surely.
    await expect.poll(() => printed).toEqual(["log:shout-at-import"])
    const result = await runTool(project, "shout", { word: "hey" }, { timeoutMs: 30_000 })
    expect(result.output).toBe("HEY")
    // Each stream in its order (the two pipes are read as they come, so not the order between
    // them); the partial line is written when the call returns.
    await expect
      .poll(() => printed.slice(1).filter((line) => line.startsWith("log:")))
      .toEqual(["log:shout-says hey", "log:shout-partial "])
    await expect.poll(() => printed.slice(1).filter((line) => line.startsWith("error:"))).toEqual(["error:shout-warns"])
  })
})
