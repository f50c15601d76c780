// An engine answers once what the tool printed is in its pipes, waiting 1 s at most for that: a tool
// that broke its stdout must not hold its result back. On a loaded machine, or for a huge print, Bun
// may still hold part of the output when the bound passes; it hands it over while it lives. The
// answer then says so (`unflushed`), and the Node side reads on before it ends the engine: the count
// is what the tool printed, not what arrived before the answer (64 MiB was counted 4.8 MB short in
// a loaded suite run). Here this process stops reading for 5 s as the tool is called, which the
// bound cannot outlast.
import { expect, test } from "vitest"
import type { EngineSelection } from "../../src/engine-client/choose-engine.ts"
import { runTaskInEngine, startEngine } from "../../src/tasks/engine-task.ts"
import { opencode } from "../helpers.ts"
import { toolRunInput } from "../support/run-input.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

const PRINTED = 64 * 1024 * 1024
const KEPT = 64 * 1024
const BLOCKED_MS = 5_000

test("bun engine: output still on its way when the engine answers is read on, and counted whole", {
  timeout: 120_000,
}, async () => {
  const selection: EngineSelection = { name: "bun", location: { binary: opencode.binary ?? "", source: "option" } }
  const directory = tmpProject({
    ".opencode/tools/tool.ts": toolSource(
      "prints 64 MiB",
      `const megabyte = Buffer.alloc(1024 * 1024, "x"); for (let index = 0; index < 64; index++) process.stdout.write(megabyte); return "printed"`,
    ),
  })
  const started = startEngine("run", selection)
  let unflushed: boolean | undefined
  const connection = await started.connection
  connection.onMessage((message) => {
    if (message.type === "done") unflushed = message.unflushed === true
  })
  const outcome = await runTaskInEngine(
    { command: "run", input: toolRunInput(directory, 60_000) },
    { loadTimeoutMs: 60_000, runTimeoutMs: 60_000, graceMs: 1_000 },
    started,
    {
      // Nothing is read from the engine's pipes while this runs.
      onLoaded: () => {
        const until = Date.now() + BLOCKED_MS
        while (Date.now() < until) {}
      },
    },
  )
  expect(outcome.kind).toBe("done")
  expect(unflushed).toBe(true)
  expect(outcome.console.stdout).toHaveLength(KEPT)
  expect(outcome.console.droppedBytes.stdout).toBe(PRINTED - KEPT)
})
