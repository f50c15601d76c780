// `dev` on a project whose first load offers no tool says so in the terminal, with the code, on a
// line of its own: not "engine <the error message>" in place of the engine. With --json, the same
// reason is the line's `error`. The page shows it too; a save that fixes it loads again. A folder
// that gives no tool at all gets list's and doctor's hint, and NO_TOOLS under --json.
import path from "node:path"
import { onTestFinished, expect, test } from "vitest"
import { runBin } from "../helpers.ts"
import { makeProject, startedSession, writeTool } from "./_inspector.ts"

/** `tool-tester dev ARGS` in the project until it printed its first line on stdout, then Ctrl-C. */
function devUntilUrl(directory: string, args: string[]) {
  return runBin(["dev", "--no-open", "--no-global", ...args], {
    cwd: directory,
    onSpawn: (child) => {
      let printed = ""
      child.stdout.on("data", (chunk: Buffer) => {
        printed += chunk.toString("utf8")
        if (printed.includes("\n")) child.kill("SIGINT")
      })
    },
  })
}

test("an opencode.json that cannot be parsed: the URL, then `not loaded:` with the reason and its code", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({ "opencode.json": "{ bad", ".opencode/tools/greet.ts": "export {}" })
  onTestFinished(project.remove)
  const human = await devUntilUrl(project.directory, [])
  expect(human.exitCode).toBe(0)
  expect(human.stdout).toMatch(/^tool-tester dev: http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/\n$/)
  const lines = human.stderr.split("\n")
  expect(lines[0]).toBe(`  ${project.directory}`)
  expect(lines[1]).toMatch(
    /^ {2}not loaded: .*opencode\.json: cannot read the opencode config .* \[CONFIG_INVALID\]; fix it and save/,
  )
  expect(lines[2]).toBe("  reloads on save; Ctrl-C to stop")

  const json = await devUntilUrl(project.directory, ["--json"])
  expect(json.exitCode).toBe(0)
  expect(JSON.parse(json.stdout)).toEqual({
    url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
    port: expect.any(Number),
    engine: null,
    error: { code: "CONFIG_INVALID", message: expect.stringContaining("cannot read the opencode config") },
  })
})

test("a tool file that fails to import: the engine, then `no tools:` with the file and IMPORT_FAILED", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({ ".opencode/tools/broken.ts": "export const x = ;\n" })
  onTestFinished(project.remove)
  const human = await devUntilUrl(project.directory, ["--engine", "node"])
  expect(human.exitCode).toBe(0)
  const lines = human.stderr.split("\n")
  expect(lines[0]).toMatch(
    new RegExp(`^ {2}${project.directory.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}, engine node `),
  )
  expect(lines[1]).toMatch(/^ {2}no tools: .*broken\.ts.* \[IMPORT_FAILED\]; fix it and save/)
  // With the cause, as list gives it: which file, and why it did not import.
  expect(lines[1]).toMatch(/fix the file; \.opencode\/tools\/broken\.ts: failed to import: .+ \[IMPORT_FAILED\]/)
  expect(lines[2]).toBe("  reloads on save; Ctrl-C to stop")
})

test("a --plugin path that does not exist: the tools load, and the terminal (or --json's errors) says the plugin's error, as list does", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({
    ".opencode/tools/greet.ts": 'export default { description: "Greets", args: {}, async execute() { return "hi" } }\n',
  })
  onTestFinished(project.remove)
  const human = await devUntilUrl(project.directory, ["--engine", "node", "--plugin", "./nope.ts"])
  expect(human.exitCode).toBe(0)
  const lines = human.stderr.split("\n")
  expect(lines[1]).toMatch(
    /^ {2}error: plugin .*nope\.ts \(from --plugin\): no such file or folder; fix the path \[PLUGIN_LOAD_FAILED\]$/,
  )
  expect(lines[2]).toBe("  reloads on save; Ctrl-C to stop")

  // Under --json, the same errors, in the line's `errors`: the tools loaded, so no `error`.
  const json = await devUntilUrl(project.directory, ["--engine", "node", "--plugin", "./nope.ts", "--json"])
  expect(json.exitCode).toBe(0)
  const started = JSON.parse(json.stdout) as Record<string, unknown>
  expect(started["error"]).toBeUndefined()
  expect(started["errors"]).toEqual([
    {
      code: "PLUGIN_LOAD_FAILED",
      message: expect.stringMatching(/nope\.ts \(from --plugin\): no such file or folder/),
    },
  ])
})

test("a folder that gives no tool: list's and doctor's hint on stderr, and NO_TOOLS with it under --json", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({})
  onTestFinished(project.remove)
  const hint = `No custom or plugin tool found for ${project.directory}: opencode reads tool files from .opencode/tool/`
  const human = await devUntilUrl(project.directory, ["--engine", "node"])
  expect(human.exitCode).toBe(0)
  const lines = human.stderr.split("\n")
  expect(lines[1]).toContain(`! ${hint}`)
  expect(lines[1]).toContain("Run tool-tester from your project's folder, or pass --dir with it.")
  expect(lines[2]).toBe("  reloads on save; Ctrl-C to stop")

  const json = await devUntilUrl(project.directory, ["--engine", "node", "--json"])
  expect(json.exitCode).toBe(0)
  expect(JSON.parse(json.stdout)).toMatchObject({
    url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
    error: { code: "NO_TOOLS", message: expect.stringContaining(hint) },
  })
  expect(json.stderr).not.toContain(hint)
})

test("a tool file whose import never finishes: the load is bounded, so dev says TOOL_TIMEOUT with the file, then stops at once", {
  timeout: 180_000,
}, async () => {
  const project = makeProject({
    ".opencode/tools/greet.ts": 'export default { description: "Greets", args: {}, async execute() { return "hi" } }\n',
    ".opencode/tools/hangs.ts": "await new Promise(() => {})\nexport default {}\n",
  })
  onTestFinished(project.remove)
  for (const engine of ["node", "bun"]) {
    const human = await runBin(["dev", "--no-open", "--no-global", "--engine", engine], {
      cwd: project.directory,
      env: { TOOL_TESTER_LOAD_TIMEOUT_MS: "3000" },
      onSpawn: (child) => {
        let printed = ""
        child.stdout.on("data", (chunk: Buffer) => {
          printed += chunk.toString("utf8")
          if (printed.includes("\n")) child.kill("SIGINT")
        })
      },
    })
    expect(human.exitCode, human.stderr).toBe(0)
    expect(human.stdout).toMatch(/^tool-tester dev: http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/\n$/)
    expect(human.stderr).toMatch(
      /\n {2}not loaded: .*hangs\.ts: importing it did not finish within 3000 ms \(a top-level await that never settles, or a loop at import time\).* \[TOOL_TIMEOUT\]; fix it and save/,
    )
  }
})

test("closing while a save's load hangs on an import ends that load at once, not at the load bound", {
  timeout: 120_000,
}, async () => {
  const { session, directory } = await startedSession(
    {
      ".opencode/tools/greet.ts":
        'export default { description: "Greets", args: {}, async execute() { return "hi" } }\n',
    },
    { loadTimeoutMs: 1_000_000 },
  )
  writeTool(directory, ".opencode/tools/hangs.ts", "await new Promise(() => {})\nexport default {}\n")
  const reloading = session.reload([path.join(directory, ".opencode/tools/hangs.ts")])
  // Without the bound on close, this waited for the load: 1,000 s here, for ever at the default.
  await session.close()
  await reloading
  expect(session.view()).toBeDefined()
})

test("a tool file that calls process.exit at import is named, as list names it", { timeout: 120_000 }, async () => {
  const project = makeProject({ ".opencode/tools/bye.ts": "process.exit(3)\n" })
  onTestFinished(project.remove)
  const human = await devUntilUrl(project.directory, ["--engine", "bun"])
  expect(human.exitCode).toBe(0)
  expect(human.stderr.split("\n")[1]).toBe(
    `  not loaded: ${path.join(project.directory, ".opencode/tools/bye.ts")}: ended the process while loading (process.exit(3)); opencode itself would exit: remove the process.exit call [IMPORT_FAILED]; fix it and save, the page follows`,
  )
})

test("an --engine-binary that is no engine ends dev with ENGINE_FAILED (exit 1): no save would bring it up", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({ ".opencode/tools/greet.ts": "export {}\n" })
  onTestFinished(project.remove)
  for (const json of [false, true]) {
    const ended = await runBin(["dev", "--no-open", "--engine-binary", "/bin/true", ...(json ? ["--json"] : [])], {
      cwd: project.directory,
    })
    expect(ended.exitCode, ended.stderr).toBe(1)
    // Under --json too the error is a JSON line on stderr, as list gives it.
    const said = json ? JSON.parse(ended.stderr).error.message : ended.stderr
    expect(said).toMatch(
      /could not start \S*true: it exited with code 0 before it was up: pass another --engine-binary/,
    )
    if (!json) expect(ended.stderr).toMatch(/\[ENGINE_FAILED\]\n$/)
  }
})
