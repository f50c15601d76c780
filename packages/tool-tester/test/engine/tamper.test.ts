// A tool that tampers with the engine's built-ins cannot change what the next call sees: under the
// bun engine the library reports the call TOOL_TAMPERED and replaces the engine before the next
// call, whose result is then the one a fresh engine gives.
import { describe, expect, onTestFinished, test } from "vitest"
import type { ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

async function load(directory: string): Promise<ToolProject> {
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine: "bun" })
  onTestFinished(() => closeProject(project))
  return project
}

/** What the innocent tool reports: whatever a tampering tool could have changed. */
const LOOK = `return JSON.stringify({
  pid: typeof process.pid,
  objectKeys: Reflect.ownKeys(Object.prototype).map(String).sort(),
  arrayKeys: Reflect.ownKeys(Array.prototype).map(String).sort(),
  promise: typeof Promise.resolve,
  then: "then" in {},
  json: JSON.stringify([1]),
})`

// Each tampering: a non-configurable key cannot be put back in place; only a new engine undoes it.
const TAMPERINGS: Record<string, string> = {
  "a non-configurable, non-enumerable key on Object.prototype":
    'Object.defineProperty(Object.prototype, "hidden", { value: 1, enumerable: false, configurable: false }); return "done"',
  "a throwing Object.prototype.then getter":
    'Object.defineProperty(Object.prototype, "then", { get() { throw new Error("then") }, configurable: true }); return "done"',
  "an accessor on Array.prototype":
    'Object.defineProperty(Array.prototype, "last", { get() { return 1 }, configurable: true }); return "done"',
  "a replaced global Promise": '(globalThis as any).Promise = function () { throw new Error("no") }; return "done"',
  "a frozen JSON.stringify replacement":
    'Object.defineProperty(JSON, "stringify", { value: () => "tampered", writable: false, configurable: false }); return "done"',
}

describe("a tool that tampers with built-ins, under the bun engine (library)", { timeout: 120_000 }, () => {
  test.each(Object.entries(TAMPERINGS))("%s: TOOL_TAMPERED, then a fresh engine's result", async (_name, body) => {
    const directory = tmpProject({
      ".opencode/tools/tamper.ts": toolSource("tampers", body),
      ".opencode/tools/look.ts": toolSource("looks", LOOK),
    })
    const fresh = await runTool(await load(directory), "look", {})
    const project = await load(directory)
    const tampered = await runTool(project, "tamper", {})
    expect(tampered.status).toBe("error")
    expect(tampered.error?.code).toBe("TOOL_TAMPERED")
    const after = await runTool(project, "look", {})
    expect(after.status).toBe("completed")
    expect(after.output).toBe(fresh.output)
  })
})
