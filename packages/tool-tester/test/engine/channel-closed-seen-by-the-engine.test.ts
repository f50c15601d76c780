// A tool that closes the engine's descriptor 3 while another process still holds the pipe (a child
// it started with the descriptor) is CHANNEL_CLOSED, not a timeout: the Node side never sees the
// pipe close then (as under Wine for every closed descriptor 3, issue 31 point 5). The engine,
// failing to write its answer, ends with the exit code that says so (src/engine-client/channel-closed.ts),
// and what the tool started goes with it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import type { EngineSelection } from "../../src/engine-client/choose-engine.ts"
import { runTaskInEngine, startEngine } from "../../src/tasks/engine-task.ts"
import { opencode } from "../helpers.ts"
import { isRunning } from "../support/processes.ts"
import { toolRunInput } from "../support/run-input.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

const holdsTheChannel = (
  pidFile: string,
) => `const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"], {
  env: { ...process.env, BUN_BE_BUN: "1" },
  stdio: ["ignore", "ignore", "ignore", 3],
})
writeFileSync(${JSON.stringify(pidFile)}, String(child.pid))
closeSync(3)
return "ok"`

describe.each([
  ["node", { name: "node" } as EngineSelection, undefined],
  [
    "bun",
    { name: "bun", location: { binary: opencode.binary ?? "", source: "option" } } as EngineSelection,
    opencode.reason,
  ],
])("the %s engine", (_, selection, missing) => {
  test.skipIf(missing !== undefined)(
    `a tool that closes descriptor 3 while its child holds the pipe is CHANNEL_CLOSED, and the child is ended${missing === undefined ? "" : ` (${missing})`}`,
    { timeout: 180_000 },
    async () => {
      const directory = tmpProject({})
      const pidFile = path.join(directory, "holder.pid")
      mkdirSync(path.join(directory, ".opencode", "tools"), { recursive: true })
      writeFileSync(
        path.join(directory, ".opencode", "tools", "tool.ts"),
        'import { spawn } from "node:child_process"\nimport { closeSync, writeFileSync } from "node:fs"\n' +
          toolSource("under test", holdsTheChannel(pidFile)),
      )
      // Long enough that a timeout cannot pass for the answer.
      const input = toolRunInput(directory, 120_000)
      const outcome = await runTaskInEngine(
        { command: "run", input },
        { loadTimeoutMs: 60_000, runTimeoutMs: 120_000, graceMs: 1_000 },
        startEngine("run", selection),
      )
      expect(outcome.kind === "failed" && outcome.error.code, JSON.stringify(outcome)).toBe("CHANNEL_CLOSED")
      const holder = Number(readFileSync(pidFile, "utf8"))
      await expect.poll(() => isRunning(holder), { timeout: 30_000 }).toBe(false)
    },
  )
})
