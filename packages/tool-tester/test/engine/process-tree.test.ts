import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import type { ProcessTableSource } from "../../src/runtime/process-tree.ts"
import {
  descendantsOf,
  ENGINE_MARK,
  endMarked,
  endProcessTree,
  markedProcesses,
  parseProcessTable,
  readTable,
} from "../../src/runtime/process-tree.ts"
import { fixture } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"

type Tree = { root: ChildProcess; child: number; grandchild: number; detached: number }

/** Starts test/fixtures/process-tree/spawn-tree.cjs and waits for the ids it prints; every process is ended after the test. */
async function startTree(options: { detached: boolean }): Promise<Tree> {
  const root = spawn(process.execPath, [path.join(fixture("process-tree"), "spawn-tree.cjs")], {
    stdio: ["ignore", "pipe", "inherit"],
    detached: options.detached,
  })
  let text = ""
  root.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk
  })
  await vi.waitFor(() => expect(text).toMatch(/\n$/), { timeout: 30_000, interval: 50 })
  const ids = JSON.parse(text) as Omit<Tree, "root">
  onTestFinished(() => {
    for (const pid of [ids.child, ids.grandchild, ids.detached, root.pid]) killProcess(pid)
  })
  return { root, ...ids }
}

const gone = (pids: number[]) =>
  vi.waitFor(() => expect(pids.filter(isRunning)).toEqual([]), { timeout: 20_000, interval: 50 })

describe("the process table", () => {
  test("ps rows with padding and a header-less layout parse to ids and parents", () => {
    expect(parseProcessTable("    1     0\n  345     1\nnot a row\n\n 346 345\n")).toEqual([
      { pid: 1, ppid: 0 },
      { pid: 345, ppid: 1 },
      { pid: 346, ppid: 345 },
    ])
    expect(parseProcessTable("10 4 133000000000000000\r\n")).toEqual([
      { pid: 10, ppid: 4, started: 133000000000000000 },
    ])
  })

  test("descendants come parents first, and a cycle does not loop", () => {
    const table = [
      { pid: 1, ppid: 0 },
      { pid: 10, ppid: 1 },
      { pid: 11, ppid: 10 },
      { pid: 12, ppid: 11 },
      { pid: 20, ppid: 10 },
      { pid: 30, ppid: 2 },
      { pid: 40, ppid: 41 },
      { pid: 41, ppid: 40 },
    ]
    expect(descendantsOf(10, table)).toEqual([11, 20, 12])
    expect(descendantsOf(40, table)).toEqual([41])
    expect(descendantsOf(99, table)).toEqual([])
  })

  test("a child older than its parent (Windows reused the parent's id) is not counted", () => {
    const table = [
      { pid: 10, ppid: 1, started: 500 },
      { pid: 11, ppid: 10, started: 600 },
      { pid: 12, ppid: 10, started: 100 },
    ]
    expect(descendantsOf(10, table)).toEqual([11])
  })

  test.runIf(process.platform === "linux")("on Linux, /proc and ps list this process under its parent", () => {
    for (const source of ["proc", "ps"] as const) {
      expect(readTable({ source })).toContainEqual({ pid: process.pid, ppid: process.ppid })
    }
  })

  test.runIf(process.platform !== "win32")("ps is the table elsewhere on POSIX", () => {
    expect(readTable({ source: "ps" })).toContainEqual({ pid: process.pid, ppid: process.ppid })
  })
})

// The platform's own table, then (on Linux) ps forced, as macOS reads it.
const sources: (ProcessTableSource | undefined)[] = process.platform === "linux" ? [undefined, "ps"] : [undefined]

describe("ending what a process started", { timeout: 90_000 }, () => {
  test.each(sources)("endProcessTree (table: %s) ends the root and all it started", async (source) => {
    const tree = await startTree({ detached: process.platform !== "win32" })
    const exited = once(tree.root, "exit")
    endProcessTree(tree.root.pid!, source === undefined ? {} : { source })
    await exited
    // The detached child left the root's process group: only the table walk reaches it on POSIX.
    await gone([tree.child, tree.grandchild, tree.detached])
  })

  test.skipIf(process.platform === "win32").each(sources)(
    "endMarked (table: %s) ends a process that carries the mark after its parent is gone (Windows has no environment listing)",
    async (source) => {
      const mark = `test-${process.pid}-${Math.random().toString(36).slice(2)}`
      // A shell in a group of its own backgrounds an idle node and exits: its child is an orphan
      // outside any group this test knows, found only by the mark it inherited.
      const shell = spawn(
        "sh",
        ["-c", `"${process.execPath}" -e "setInterval(() => {}, 1000)" > /dev/null 2>&1 & echo $!`],
        {
          env: { ...process.env, [ENGINE_MARK]: mark },
          stdio: ["ignore", "pipe", "inherit"],
          detached: true,
        },
      )
      let text = ""
      shell.stdout!.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
      // "close", not "exit": the exit can come before the shell's output has been read.
      await once(shell, "close")
      const orphan = Number(text.trim())
      onTestFinished(() => killProcess(orphan))
      expect(orphan, `the shell printed ${JSON.stringify(text)}, not an id`).toBeGreaterThan(0)
      const options = source === undefined ? {} : { source }
      await vi.waitFor(() => expect(markedProcesses(mark, options)).toEqual([orphan]), {
        timeout: 20_000,
        interval: 50,
      })
      expect(endMarked(mark, options)).toEqual([orphan])
      await gone([orphan])
      expect(markedProcesses(mark, options)).toEqual([])
    },
  )

  // Windows' path, run here with a taskkill of the test's own on PATH: one that cannot end the tree
  // (missing, or refusing /T as Wine's own does) still leaves no process the CLI waits on, and one
  // that answers 128 ("no such process") is believed, since the id may be another's by then.
  test.skipIf(process.platform === "win32").each([
    { taskkill: "missing", exit: undefined, ended: true },
    { taskkill: "refusing /T", exit: 1, ended: true },
    { taskkill: "finding no such process", exit: 128, ended: false },
  ])("on Windows, with a taskkill $taskkill, the process itself is ended: $ended", async ({ exit, ended }) => {
    const bin = mkdtempSync(path.join(tmpdir(), "fake-taskkill-"))
    onTestFinished(() => rmSync(bin, { recursive: true, force: true }))
    if (exit !== undefined) {
      writeFileSync(path.join(bin, "taskkill"), `#!/bin/sh\nexit ${exit}\n`)
      chmodSync(path.join(bin, "taskkill"), 0o755)
    }
    vi.stubEnv("PATH", exit === undefined ? bin : `${bin}${path.delimiter}${process.env["PATH"]}`)
    const idle = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" })
    onTestFinished(() => killProcess(idle.pid))
    const exited = once(idle, "exit")
    endProcessTree(idle.pid!, { platform: "win32" })
    vi.unstubAllEnvs()
    const outcome = await Promise.race([
      exited.then(() => "ended"),
      sleep(ended ? 30_000 : 2_000).then(() => "running"),
    ])
    expect(outcome).toBe(ended ? "ended" : "running")
  })

  test("ids that are not processes are ignored", () => {
    expect(() => endProcessTree(0)).not.toThrow()
    expect(() => endProcessTree(-1)).not.toThrow()
  })
})
