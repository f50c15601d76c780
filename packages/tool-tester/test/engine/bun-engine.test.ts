// The library under the bun engine: loadTools() starts one Bun process per project (the opencode
// binary this repository installs for e2e, run with BUN_BE_BUN=1) and every call goes there.
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import type { ToolProject } from "../../src/index.ts"
import { callTool, closeProject, getToolSchemas, listTools, loadTools, runTool } from "../../src/index.ts"
import { openProject } from "../../src/load-tools.ts"
import { packageRoot } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

const here = path.dirname(fileURLToPath(import.meta.url))
const docsExample = path.join(here, "..", "..", "probes", "bun-apis", ".opencode", "tools")

async function load(directory: string): Promise<ToolProject> {
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine: "bun" })
  onTestFinished(() => closeProject(project))
  return project
}

describe("the bun engine, from the library", { timeout: 120_000 }, () => {
  test("runs the custom-tools docs' Python example (Bun.$) and returns 5", async () => {
    const directory = tmpProject({})
    mkdirSync(path.join(directory, ".opencode", "tools"), { recursive: true })
    for (const file of ["python-add.ts", "add.py"]) {
      copyFileSync(path.join(docsExample, file), path.join(directory, ".opencode", "tools", file))
    }
    const project = await load(directory)
    expect(project.engine).toMatchObject({ name: "bun", version: "1.3.14" })
    expect(listTools(project).map((tool) => tool.id)).toContain("python-add")
    const result = await runTool(project, "python-add", { a: 2, b: 3 })
    expect(result).toMatchObject({ status: "completed", output: "5", outputPath: undefined })
  })

  test("one engine process serves every call of a project, and schemas come from where zod lives", async () => {
    const directory = tmpProject({
      ".opencode/tools/pid.ts": toolSource(
        "the engine's pid",
        'return [process.pid, typeof Bun, import.meta.path].join(" ")',
        "{ n: tool.schema.number().describe('a number') }",
      ),
    })
    const project = await load(directory)
    expect(project.tools[0]).toMatchObject({ id: "pid", description: "the engine's pid" })
    expect(project.tools[0]!.definition).toBeUndefined()
    const schemas = await getToolSchemas(project)
    expect(schemas.success && schemas.value[0]!.parameters).toMatchObject({
      properties: { n: { type: "number", description: "a number" } },
    })
    const outputs = new Set<string>()
    for (let index = 0; index < 100; index++) outputs.add((await runTool(project, "pid", { n: index })).output)
    expect(outputs.size).toBe(1)
    const [pid, bun, file] = [...outputs][0]!.split(" ")
    expect(Number(pid)).not.toBe(process.pid)
    expect(bun).toBe("object")
    // Modules load natively: import.meta is the user's own file, not a prepared copy.
    expect(file).toBe(path.join(directory, ".opencode/tools/pid.ts"))
  })

  test("a tool that ends the engine fails its call; the next call gets a new engine", async () => {
    const directory = tmpProject({
      ".opencode/tools/pid.ts": toolSource("pid", "return String(process.pid)"),
      ".opencode/tools/exits.ts": toolSource("exits", "process.exit(3)"),
      ".opencode/tools/escapes.ts": toolSource(
        "escapes",
        'setTimeout(() => { throw new RangeError("from a timer") }, 1); await new Promise((resolve) => setTimeout(resolve, 50)); return "returned"',
      ),
    })
    // The escaped error is printed on the engine's stderr, which reaches this process's console.error.
    const printed = vi.spyOn(console, "error").mockImplementation(() => {})
    const project = await load(directory)
    const first = Number((await runTool(project, "pid", {})).output)
    const exited = await runTool(project, "exits", {})
    expect(exited).toMatchObject({ status: "error", id: "exits", error: { code: "TOOL_EXITED" } })
    expect(exited.output).toContain("process.exit(3)")
    const second = Number((await runTool(project, "pid", {})).output)
    expect(second).not.toBe(first)
    expect(isRunning(first)).toBe(false)
    // An error that escapes does not end it (docs/opencode-contract.md#escaped-errors): listed, same engine.
    const escaped = await callTool(project, { name: "ESCAPES", rawArguments: "{}" })
    expect(escaped).toMatchObject({ id: "escapes", repaired: true, status: "completed", output: "returned" })
    expect(escaped.escapedErrors).toEqual([{ kind: "uncaughtException", message: "RangeError: from a timer" }])
    await expect.poll(() => printed.mock.calls.join("\n")).toContain("RangeError: from a timer")
    expect(Number((await runTool(project, "pid", {})).output)).toBe(second)
  })

  test("a busy loop is stopped after its timeout and grace; an abort signal reaches the tool", async () => {
    const directory = tmpProject({
      ".opencode/tools/busy.ts": toolSource("busy", "for (;;) {}"),
      ".opencode/tools/waits.ts": toolSource(
        "waits",
        // A signal can be aborted before execute starts (the engine had not read the call yet): check it first.
        'return new Promise((resolve) => { const done = () => resolve("aborted: " + String(context.abort.reason)); if (context.abort.aborted) done(); else context.abort.addEventListener("abort", done) })',
      ),
    })
    const project = await load(directory)
    const busy = await runTool(project, "busy", {}, { timeoutMs: 200 })
    expect(busy).toMatchObject({ status: "error", error: { code: "TOOL_TIMEOUT" } })
    // The project is loaded again in a new engine first: an abort during that load would end it and
    // reject (load-in-opencode-options.test.ts); the call below finds it loaded.
    await getToolSchemas(project)
    const controller = new AbortController()
    const waiting = runTool(project, "waits", {}, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error("stop")), 100)
    const waited = await waiting
    expect(waited.output).toContain("aborted")
  })

  test("a signal aborted before the call reaches the tool's context.abort, as under the node engine", async () => {
    // The tool never awaits I/O: it had returned before an abort message sent after the call was read.
    const directory = tmpProject({
      ".opencode/tools/aborted.ts": toolSource("aborted", "return String(context.abort.aborted)"),
    })
    const project = await load(directory)
    expect((await runTool(project, "aborted", {}, { signal: AbortSignal.abort() })).output).toBe("true")
    expect(
      (await callTool(project, { name: "aborted", rawArguments: "{}" }, { signal: AbortSignal.abort() })).output,
    ).toBe("true")
    expect((await runTool(project, "aborted", {})).output).toBe("false")
  })

  test("a call that shared the engine a timed-out call stopped is INTERRUPTED, naming that call, not TOOL_EXITED", async () => {
    const directory = tmpProject({
      ".opencode/tools/busy.ts": toolSource("busy", "for (;;) {}"),
      ".opencode/tools/slow.ts": toolSource(
        "slow",
        'await new Promise((resolve) => setTimeout(resolve, 60_000)); return "late"',
      ),
    })
    const project = await load(directory)
    // slow waits in the engine when busy's loop takes it; busy's timeout then ends that engine.
    const slow = runTool(project, "slow", {})
    const busy = await runTool(project, "busy", {}, { timeoutMs: 300 })
    expect(busy).toMatchObject({ status: "error", error: { code: "TOOL_TIMEOUT" } })
    expect(await slow).toMatchObject({
      status: "error",
      error: {
        code: "INTERRUPTED",
        message:
          "a call to busy did not finish within its timeoutMs (300 ms), so the engine this call shared with it was stopped: run it again",
      },
    })
  })

  test("an aborted call whose tool does not stop (a busy loop, or an await that ignores its signal) ends its engine 1 s later, as INTERRUPTED", async () => {
    const directory = tmpProject({
      ".opencode/tools/pid.ts": toolSource("pid", "return String(process.pid)"),
      ".opencode/tools/busy.ts": toolSource("busy", "for (;;) {}"),
      ".opencode/tools/deaf.ts": toolSource("deaf", "await new Promise(() => {}); return 'never'"),
      ".opencode/tools/stops.ts": toolSource(
        "stops",
        'return new Promise((_, reject) => { if (context.abort.aborted) reject(context.abort.reason); context.abort.addEventListener("abort", () => reject(context.abort.reason)) })',
      ),
    })
    const project = await load(directory)
    const pidOf = async () => Number((await runTool(project, "pid", {})).output)
    // A tool that stops on its signal keeps its engine, and its own ending.
    const first = await pidOf()
    const controller = new AbortController()
    const stopping = runTool(project, "stops", {}, { signal: controller.signal })
    setTimeout(() => controller.abort(), 100)
    expect(await stopping).toMatchObject({ status: "error", error: { code: "TOOL_THREW" } })
    expect(await pidOf()).toBe(first)
    // One that does not is ended with its engine: vitest's context.signal at a test's timeout no
    // longer leaves every later test of the file queued behind it.
    for (const name of ["busy", "deaf"]) {
      const engine = await pidOf()
      const aborting = new AbortController()
      const call = runTool(project, name, {}, { signal: aborting.signal })
      setTimeout(() => aborting.abort(), 100)
      expect(await call, name).toMatchObject({
        status: "error",
        error: {
          code: "INTERRUPTED",
          message: `the call was aborted (its signal), and ${name} did not stop within 1000 ms after its abort signal (context.abort) fired, so the engine it ran in was ended with what it started; the next call starts a new one`,
        },
      })
      await expect.poll(() => isRunning(engine), { timeout: 10_000 }).toBe(false)
      expect(await pidOf(), name).not.toBe(engine)
    }
  })

  test("a timed-out tool that ignores its abort signal has its engine ended after the grace; one that stops keeps it", async () => {
    const directory = tmpProject({
      ".opencode/tools/pid.ts": toolSource("pid", "return String(process.pid)"),
      ".opencode/tools/deaf.ts": toolSource(
        "deaf",
        'const child = Bun.spawn(["sleep", "600"]); await Bun.write(context.directory + "/child.pid", String(child.pid)); await new Promise(() => {}); return "never"',
      ),
      ".opencode/tools/stops.ts": toolSource(
        "stops",
        'return new Promise((_, reject) => context.abort.addEventListener("abort", () => reject(context.abort.reason)))',
      ),
      ".opencode/tools/slow.ts": toolSource(
        "slow",
        'await new Promise((resolve) => setTimeout(resolve, 60_000)); return "late"',
      ),
    })
    const project = await load(directory)
    const first = Number((await runTool(project, "pid", {})).output)
    expect(await runTool(project, "stops", {}, { timeoutMs: 100 })).toMatchObject({ error: { code: "TOOL_TIMEOUT" } })
    // Past the grace the deaf tool below gets: the engine stayed.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(Number((await runTool(project, "pid", {})).output)).toBe(first)
    // deaf keeps awaiting (and its child running) after its TOOL_TIMEOUT: a second later its engine
    // is ended with the child, and a call still running there is told why.
    const slow = runTool(project, "slow", {})
    const deaf = await runTool(project, "deaf", {}, { timeoutMs: 100 })
    expect(deaf).toMatchObject({ status: "error", error: { code: "TOOL_TIMEOUT" } })
    expect(await slow).toMatchObject({
      status: "error",
      error: {
        code: "INTERRUPTED",
        message:
          "a call to deaf timed out and its tool did not stop within 1000 ms after its abort signal, so the engine this call shared with it was stopped: run it again",
      },
    })
    await expect.poll(() => isRunning(first), { timeout: 10_000 }).toBe(false)
    const child = Number(readFileSync(path.join(directory, "child.pid"), "utf8"))
    onTestFinished(() => killProcess(child))
    await expect.poll(() => isRunning(child), { timeout: 10_000 }).toBe(false)
    expect(Number((await runTool(project, "pid", {})).output)).not.toBe(first)
  })

  test("a JSON copy of the project (vitest's provide makes one) is ENGINE_FAILED saying so; a spread copy runs", async () => {
    const directory = tmpProject({ ".opencode/tools/pid.ts": toolSource("pid", "return String(process.pid)") })
    const project = await load(directory)
    const copy = JSON.parse(JSON.stringify(project)) as ToolProject
    expect(listTools(copy).map((tool) => tool.id)).toContain("pid")
    const lost = {
      code: "ENGINE_FAILED",
      message: expect.stringMatching(/^this project is a copy of what loadTools\(\) resolved to/),
    }
    await expect(runTool(copy, "pid", {})).rejects.toMatchObject(lost)
    await expect(getToolSchemas(copy)).rejects.toMatchObject(lost)
    expect((await runTool({ ...project }, "pid", {})).status).toBe("completed")
  })

  test("closeProject ends the engine and the processes its tools left running", async () => {
    const directory = tmpProject({
      ".opencode/tools/spawns.ts": toolSource(
        "spawns",
        'const child = Bun.spawn(["sleep", "600"]); return String(child.pid)',
      ),
    })
    const project = await load(directory)
    const pid = Number((await runTool(project, "spawns", {})).output)
    expect(isRunning(pid)).toBe(true)
    closeProject(project)
    await expect.poll(() => isRunning(pid), { timeout: 10_000 }).toBe(false)
  })

  test("closeProject also ends a process that left the engine's group and lost its parent", async () => {
    // A detached shell backgrounds a sleep and exits: the sleep is in another group, its parent init.
    const body = `const shell = Bun.spawn(["sh", "-c", "sleep 617 > /dev/null 2>&1 & echo $!"], { stdout: "pipe" })
    return (await new Response(shell.stdout).text()).trim()`
    const directory = tmpProject({ ".opencode/tools/orphans.ts": toolSource("orphans", body) })
    const project = await load(directory)
    const pid = Number((await runTool(project, "orphans", {})).output)
    expect(pid).toBeGreaterThan(0)
    onTestFinished(() => killProcess(pid))
    await expect.poll(() => isRunning(pid), { timeout: 10_000 }).toBe(true)
    closeProject(project)
    await expect.poll(() => isRunning(pid), { timeout: 10_000 }).toBe(false)
  })

  test("an engine killed by SIGKILL is reported as killed by SIGKILL, not as a process.exit code", async () => {
    const directory = tmpProject({
      ".opencode/tools/killed.ts": toolSource("killed", 'process.kill(process.pid, "SIGKILL"); return "never"'),
    })
    const project = await load(directory)
    const result = await runTool(project, "killed", {})
    expect(result.error?.code).toBe("TOOL_EXITED")
    expect(result.error?.message).toContain("killed by SIGKILL")
    expect(result.error?.message).not.toContain("process.exit")
  })

  test("a tool file that ends the engine while loading is an IMPORT_FAILED error", async () => {
    const directory = tmpProject({ ".opencode/tools/bye.ts": "process.exit(9)\n" })
    const { env, home } = isolatedEnvironment()
    await expect(loadTools({ directory, env, home, engine: "bun" })).rejects.toMatchObject({
      code: "IMPORT_FAILED",
      message: expect.stringContaining("process.exit(9)"),
    })
  })

  test("a binary that is not a Bun is ENGINE_FAILED, not blamed on a tool file", async () => {
    const directory = tmpProject({ ".opencode/tools/fine.ts": toolSource("fine") })
    await expect(loadTools({ directory, engine: "bun", engineBinary: "/bin/false" })).rejects.toMatchObject({
      code: "ENGINE_FAILED",
      message: expect.stringContaining("/bin/false"),
    })
  })

  test.skipIf(process.platform === "win32")(
    `a script awaiting loadTools() with a binary that exits at once gets its ENGINE_FAILED before it ends${process.platform === "win32" ? " (skipped: /bin/true is POSIX)" : ""}`,
    async () => {
      const directory = tmpProject({ ".opencode/tools/fine.ts": toolSource("fine") })
      const library = pathToFileURL(path.join(packageRoot, "dist", "index.js")).href
      const script = `import { loadTools } from ${JSON.stringify(library)}
try {
  await loadTools({ directory: ${JSON.stringify(directory)}, global: false, engine: "bun", engineBinary: "/bin/true" })
} catch (error) {
  console.log(error.code)
}
`
      // Nothing else keeps the script alive while it waits: without an answer, Node ends it with 13.
      const { status, stdout } = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
        timeout: 60_000,
      })
      expect({ status, stdout }).toEqual({ status: 0, stdout: "ENGINE_FAILED\n" })
    },
  )

  test("a missing engine binary, and an unknown engine, are clear errors naming loadTools()'s options", async () => {
    const directory = tmpProject({})
    await expect(loadTools({ directory, engineBinary: "/nope/opencode" })).rejects.toMatchObject({
      code: "ENGINE_NOT_FOUND",
      message: expect.stringMatching(/^engineBinary names \/nope\/opencode, /),
    })
    await expect(loadTools({ directory, engine: "deno" as never })).rejects.toMatchObject({
      code: "USAGE",
      message: 'engine is "deno": use auto, bun or node',
      data: { option: "engine", engine: "deno" },
    })
    await expect(loadTools({ directory, engine: "bun", engineBinary: "/bin/false" })).rejects.toMatchObject({
      message: expect.stringMatching(/: pass another engineBinary, or use the node engine$/),
    })
  })

  test("tool-tester's own commands load through openProject, whose errors keep the flags' names their users typed", async () => {
    const directory = tmpProject({})
    await expect(openProject({ directory, engine: "bun", engineBinary: "/bin/false" }, () => {})).rejects.toMatchObject(
      {
        code: "ENGINE_FAILED",
        message: expect.stringMatching(/: pass another --engine-binary, or use the node engine$/),
      },
    )
  })
})
