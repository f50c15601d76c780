// The CLI starts the engine's process first and talks to it once the connection's modules have
// loaded (tasks/engine-task.ts): what the process did in between must still be seen then.
import { once } from "node:events"
import { expect, test } from "vitest"
import type { EngineSelection } from "../../src/engine-client/choose-engine.ts"
import { EngineConnection } from "../../src/engine-client/engine-connection.ts"
import { startEngineProcess } from "../../src/engine-client/engine-process.ts"

test("an engine that exited before its connection listened: its exit and what it printed are still read", {
  timeout: 30_000,
}, async () => {
  // This Node given as the bun engine's binary: it refuses Bun's flags and exits at once.
  const selection: EngineSelection = { name: "bun", location: { binary: process.execPath, source: "option" } }
  const options = { cwd: process.cwd(), console: "pipe" } as const
  const started = startEngineProcess(selection, options)
  await once(started.child, "exit")
  // Node drains a pipe nobody reads a turn after the exit.
  await new Promise((resolve) => setTimeout(resolve, 100))
  const connection = new EngineConnection(selection, options, started)
  const ended = await connection.exited
  expect(ended).toMatchObject({ exitCode: 9, started: false })
  // Read as the CLI reads it: once the engine is stopped and its pipes drained.
  await connection.stop()
  expect(connection.console().stderr).toContain("--no-install")
})
