// A tool-tester installed with yarn 2+'s Plug'n'Play (no `config set nodeLinker node-modules`
// first): the bun engine cannot open tool-tester's file inside yarn's .zip, and the message said to
// give another binary or use the node engine, which does not help (yarn 4.18.1).
import path from "node:path"
import { describe, expect, test } from "vitest"
import { plugNPlayAdvice } from "../../src/engine-client/plug-n-play.ts"
import type { TaskOutcome } from "../../src/tasks/engine-task.ts"
import { loadFailure } from "../../src/tasks/task-failure.ts"

const zipped = path.join(
  "/p/.opencode/.yarn/cache/@opencode-ai-tool-tester-npm-0.1.0-5332df04ba-10c0.zip",
  "node_modules/@opencode-ai/tool-tester/dist/chunk.js",
)
const notStarted = {
  kind: "exited",
  phase: "load",
  reached: undefined,
  exitCode: 1,
  crash: undefined,
  started: false,
  console: { stdout: "", stderr: "ENOENT: No such file or directory (open())\n" },
  durationMs: 5,
  engine: { name: "bun", version: "1.3.14", binary: "/usr/bin/opencode" },
} as unknown as TaskOutcome

describe("an engine that did not start under yarn's Plug'n'Play", () => {
  test("says to switch yarn to node_modules, not to change the engine", () => {
    const advice = plugNPlayAdvice(zipped)
    expect(advice).toContain("yarn --cwd .opencode config set nodeLinker node-modules")
    const failure = loadFailure(notStarted, 60_000, advice)
    expect(failure?.code).toBe("ENGINE_FAILED")
    expect(failure?.message).toContain(
      "ENOENT: No such file or directory (open())); tool-tester is installed with yarn's Plug'n'Play",
    )
    expect(failure?.message).not.toContain("--engine node")
  })

  test("elsewhere, the usual advice", () => {
    expect(
      plugNPlayAdvice(path.resolve("/p/.opencode/node_modules/@opencode-ai/tool-tester/dist/chunk.js")),
    ).toBeUndefined()
    expect(plugNPlayAdvice()).toBeUndefined()
    expect(loadFailure(notStarted, 60_000)?.message).toContain("or use --engine node")
  })
})
