// Code a tool leaves running after its call returned (a timer, an interval) can change the
// built-ins. Before, a change made while the call waited for escaped errors was put back without a
// word, and one made later was found by the next call's check after execute, which blamed that
// call's tool, an innocent one ("innocent changed the engine's built-ins"), while the tool that did
// it was never reported. And in the caller's own process (the library's node engine) a test's
// `vi.useFakeTimers()` made every call TOOL_TAMPERED, and the check put the real timers back under
// the test.
import { existsSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, onTestFinished, test, vi } from "vitest"
import type { ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { opencode } from "../helpers.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

async function load(directory: string, engine: "bun" | "node"): Promise<ToolProject> {
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine })
  onTestFinished(() => closeProject(project))
  return project
}

const INNOCENT = toolSource("joins", `return ["b", "done"].join(" ")`)

/** A tool that leaves an interval which makes `change` once the file `go` exists, then writes `done`. */
function leavesInterval(change: string): string {
  return toolSource(
    "leaves an interval",
    `const fs = await import("node:fs")
  const folder = context.directory
  const interval = setInterval(() => {
    if (!fs.existsSync(folder + "/go")) return
    clearInterval(interval)
    ${change}
    fs.writeFileSync(folder + "/done", "")
  }, 5)
  return "leaves done"`,
  )
}

/** Lets the interval make its change, and waits until it has (generous: a loaded machine). */
async function letItChange(directory: string): Promise<void> {
  writeFileSync(path.join(directory, "go"), "")
  await vi.waitUntil(() => existsSync(path.join(directory, "done")), { timeout: 60_000, interval: 20 })
}

/** A bun engine's project whose `leaves` tool ran once and left an interval, which has made `change` by now. */
async function afterLeftCode(change: string): Promise<ToolProject> {
  const directory = tmpProject({
    ".opencode/tools/leaves.ts": leavesInterval(change),
    ".opencode/tools/innocent.ts": INNOCENT,
  })
  const project = await load(directory, "bun")
  const leaves = await runTool(project, "leaves", {})
  expect(leaves.status, leaves.error?.message).toBe("completed")
  await letItChange(directory)
  return project
}

const skipBun = opencode.reason !== undefined

test.skipIf(skipBun)(
  "bun engine: a change while the call waits for escaped errors is that call's TOOL_TAMPERED, put back",
  { timeout: 120_000 },
  async () => {
    const directory = tmpProject({
      ".opencode/tools/leaves.ts": toolSource(
        "leaves a timer",
        `setTimeout(() => { Array.prototype.join = function () { return "forged" } }, 0)\n  return "leaves done"`,
      ),
      ".opencode/tools/innocent.ts": INNOCENT,
    })
    const project = await load(directory, "bun")
    const leaves = await runTool(project, "leaves", {})
    expect(leaves.error?.code).toBe("TOOL_TAMPERED")
    expect(leaves.output).toBe(
      "code the tool left running changed the engine's built-ins after its call returned (Array.prototype.join)",
    )
    const innocent = await runTool(project, "innocent", {})
    expect(innocent.status, innocent.error?.message).toBe("completed")
    expect(innocent.output).toBe("b done")
  },
)

test.skipIf(skipBun)(
  "bun engine: a change between two calls is put back, the next tool runs as usual, and the tool that left the code is blamed",
  { timeout: 120_000 },
  async () => {
    const project = await afterLeftCode(`Array.prototype.join = function () { return "forged" }`)
    const innocent = await runTool(project, "innocent", {})
    expect(innocent.status, innocent.error?.message).toBe("completed")
    expect(innocent.output).toBe("b done")
    const again = await runTool(project, "leaves", {})
    expect(again.error?.code).toBe("TOOL_TAMPERED")
    expect(again.output).toBe(
      "code the tool left running after an earlier call returned changed the engine's built-ins (Array.prototype.join)",
    )
    expect(again.error?.message).toMatch(/leaves\.ts: code it left running after a call returned changed/)
  },
)

test.skipIf(skipBun)(
  "bun engine: a change between two calls that cannot be put back: the next call does not run and names the tool before it; the call after gets a new engine",
  { timeout: 120_000 },
  async () => {
    const project = await afterLeftCode(
      `Object.defineProperty(Array.prototype, "join", { value: () => "forged", configurable: false, writable: false })`,
    )
    const innocent = await runTool(project, "innocent", {})
    expect(innocent.error?.code).toBe("TOOL_TAMPERED")
    expect(innocent.error?.message).toBe(
      "code leaves left running changed the engine's built-ins after its call returned (Array.prototype.join), and they could not be put back: the call did not run",
    )
    // TOOL_TAMPERED replaces the engine: a fresh one runs the next call as usual.
    const next = await runTool(project, "innocent", {})
    expect(next.status, next.error?.message).toBe("completed")
    expect(next.output).toBe("b done")
  },
)

test("node engine, in the caller's process: the caller's fake timers stay, and a tool's own changes are still caught and put back to them", {
  timeout: 120_000,
}, async () => {
  const directory = tmpProject({
    ".opencode/tools/innocent.ts": INNOCENT,
    ".opencode/tools/tampers.ts": toolSource(
      "tampers",
      `JSON.stringify = () => "x"\n  globalThis.setTimeout = (() => 0) as any\n  return "tampers done"`,
    ),
  })
  const project = await load(directory, "node")
  vi.useFakeTimers()
  onTestFinished(() => {
    vi.useRealTimers()
  })
  const fake = globalThis.setTimeout
  const stringify = JSON.stringify

  const innocent = await runTool(project, "innocent", {})
  expect(innocent.status, innocent.error?.message).toBe("completed")
  expect(innocent.output).toBe("b done")
  expect(globalThis.setTimeout).toBe(fake)

  const tampers = await runTool(project, "tampers", {})
  expect(tampers.error?.code).toBe("TOOL_TAMPERED")
  expect(tampers.error?.message).toMatch(/changed the engine's built-ins \(globalThis\.setTimeout, JSON\.stringify\)/)
  // Put back to what the call found: the caller's fake timers, and the real JSON.stringify.
  expect(globalThis.setTimeout).toBe(fake)
  expect(JSON.stringify).toBe(stringify)
})
