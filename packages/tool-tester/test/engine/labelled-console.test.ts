// dev runs every tool of a project in one engine, whose stdout and stderr both reach dev's stderr:
// each line starts with the tool whose call printed it (`[weather] ...`), so that with several
// tools a user can tell which printed what. Line-based: a partial line is written at once and
// labelled where it starts.
import { PassThrough, Writable } from "node:stream"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import { openRemoteProject } from "../../src/engine-client/remote-project.ts"
import { consoleLabeller, pipeLabelled } from "../../src/engine-client/labelled-console.ts"
import { closeProject, runTool } from "../../src/index.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

describe("the tools' console, labelled", () => {
  test("each line after the label it starts under; a partial line once; the other stream ends it first", () => {
    let label = "[a]"
    let written = ""
    const labeller = consoleLabeller(
      () => label,
      (text) => (written += text),
    )
    labeller.write("stdout", "one\ntwo\n")
    labeller.write("stdout", "loading ")
    label = "[b]"
    labeller.write("stdout", "done\nthree")
    labeller.write("stderr", "warn\n")
    labeller.write("stderr", "")
    expect(written).toBe("[a] one\n[a] two\n[a] loading done\n[b] three\n[b] warn\n")
  })

  test("the engine's pipes pause while the sink is full and resume when it drains", async () => {
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    let release: (() => void) | undefined
    let received = ""
    // A sink that takes one small write at a time: full until the test lets the write finish.
    const sink = new Writable({
      highWaterMark: 4,
      write(chunk, _encoding, done) {
        received += String(chunk)
        release = done
      },
    })
    pipeLabelled({ stdout, stderr }, () => "[t]", sink)
    stdout.write("one\n")
    await expect.poll(() => received).toBe("[t] one\n")
    expect(stdout.isPaused()).toBe(true)
    expect(stderr.isPaused()).toBe(true)
    stderr.write("two\n")
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(received).toBe("[t] one\n")
    release?.()
    await expect.poll(() => received).toBe("[t] one\n[t] two\n")
    // That write filled the sink again: paused until it too is let through.
    expect(stdout.isPaused()).toBe(true)
    release?.()
    await expect.poll(() => stdout.isPaused()).toBe(false)
    expect(stderr.isPaused()).toBe(false)
  })

  test("dev's engine (console labelled): what each tool prints on dev's stderr after its name", {
    timeout: 120_000,
  }, async () => {
    const directory = tmpProject({
      ".opencode/tools/alpha.ts": `console.log("alpha-at-import")\n${toolSource("alpha", 'console.log("alpha-says"); return "a"')}`,
      ".opencode/tools/beta.ts": toolSource(
        "beta",
        'process.stdout.write("beta-partial "); await new Promise((r) => setTimeout(r, 50)); process.stdout.write("beta-done\\n"); console.error("beta-warns"); return "b"',
      ),
    })
    let stderr = ""
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk)
      return true
    })
    onTestFinished(() => write.mockRestore())
    const project = await openRemoteProject(
      { name: "node" },
      { directory, global: false, plugins: [], console: "labelled" },
    )
    onTestFinished(() => closeProject(project))
    expect(await runTool(project, "alpha", {}, { timeoutMs: 30_000 })).toMatchObject({ output: "a" })
    expect(await runTool(project, "beta", {}, { timeoutMs: 30_000 })).toMatchObject({ output: "b" })
    await expect.poll(() => stderr, { timeout: 30_000, interval: 50 }).toContain("beta-warns\n")
    expect(stderr).toContain("[load] alpha-at-import\n")
    expect(stderr).toContain("[alpha] alpha-says\n")
    expect(stderr).toContain("[beta] beta-partial beta-done\n")
    expect(stderr).toContain("[beta] beta-warns\n")
  })
})
