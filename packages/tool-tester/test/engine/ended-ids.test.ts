// Once the engine (or opencode) has exited and this process has reaped it, its id is free, and the
// system may give it to another process: ending what the engine left must not end that one, nor
// what it started, nor its group. Here the other process is given the id as if it had been reused.
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { EventEmitter, once } from "node:events"
import path from "node:path"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import { endEngine } from "../../src/engine-client/spawn-engine.ts"
import { endGroupOfExited } from "../../src/runtime/process-tree.ts"
import { fixture } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"

type Other = { root: ChildProcess; leaf: number; answers: (line: string) => Promise<string> }

/** A process with a child that both answer (fixtures/process-tree/answers.cjs), leading a group of its own. */
async function startOther(): Promise<Other> {
  const root = spawn(process.execPath, [path.join(fixture("process-tree"), "answers.cjs")], {
    stdio: ["pipe", "pipe", "inherit"],
    detached: process.platform !== "win32",
  })
  let text = ""
  root.stdout!.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
  await vi.waitFor(() => expect(text).toMatch(/^\d+\n/), { timeout: 30_000, interval: 50 })
  const leaf = Number(text.trim())
  onTestFinished(() => {
    for (const pid of [leaf, root.pid]) killProcess(pid)
  })
  const answers = async (line: string) => {
    text = ""
    const exited = once(root, "exit").then(() => "exited")
    root.stdin!.write(`${line}\n`)
    const answered = vi.waitFor(
      () => {
        expect(text).toBe(`${line}\n`)
        return "answered"
      },
      { timeout: 60_000, interval: 20 },
    )
    return Promise.race([answered, exited])
  }
  return { root, leaf, answers }
}

/** A child process object as Node leaves it once it has seen the process exit, with `pid` as its id. */
function exitedChild(pid: number): ChildProcess {
  return Object.assign(new EventEmitter(), {
    pid,
    exitCode: 0,
    signalCode: null,
    kill: () => true,
  }) as unknown as ChildProcess
}

describe("an id given again after the process that had it exited", { timeout: 120_000 }, () => {
  test("endEngine of an engine that has exited leaves the process that now has its id, its child and its group", async () => {
    const other = await startOther()
    endEngine(exitedChild(other.root.pid!))
    // Any kill was sent before this line is written: a process it reached cannot answer it.
    expect(await other.answers("after endEngine")).toBe("answered")
    // Sent to the engine still running (not seen to exit), the same call ends them both.
    endEngine(Object.assign(exitedChild(other.root.pid!), { exitCode: null }))
    await vi.waitFor(() => expect([other.root.pid!, other.leaf].filter(isRunning)).toEqual([]), {
      timeout: 20_000,
      interval: 50,
    })
  })

  test.skipIf(process.platform === "win32")(
    "endGroupOfExited leaves a group whose leader has the id, and ends one whose leader is gone (POSIX: Windows has no groups)",
    async () => {
      const other = await startOther()
      endGroupOfExited(other.root.pid!)
      expect(await other.answers("after endGroupOfExited")).toBe("answered")
      // The leader gone, the group keeps its id for the child left in it: that group is ended.
      process.kill(other.root.pid!, "SIGKILL")
      await once(other.root, "exit")
      expect(isRunning(other.leaf)).toBe(true)
      endGroupOfExited(other.root.pid!)
      await vi.waitFor(() => expect(isRunning(other.leaf)).toBe(false), { timeout: 20_000, interval: 50 })
    },
  )
})
