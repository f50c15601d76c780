// The reaper ends what its process left when that process ends: its pipe closes. A pipe can stay
// open after it, when another process holds its end too (a handle a process it started inherited;
// under Wine a reaper whose parent had died was seen alive ten minutes later, holding the command's
// output open). So the reaper also looks for the process it guards (`--guards PID`): gone, it ends
// what is left and exits, though its pipe is still open. Here this test holds the pipe open.
import { type ChildProcess, spawn } from "node:child_process"
import { afterEach, expect, test } from "vitest"
import { REAPER_ENTRY } from "../src/runtime/runtime-files.ts"
import { isRunning, killProcess } from "./support/processes.ts"

const started: ChildProcess[] = []
afterEach(() => {
  for (const child of started.splice(0)) {
    child.stdin?.destroy()
    killProcess(child.pid)
  }
})

const sleeper = () => {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120_000)"], { stdio: "ignore" })
  started.push(child)
  return child
}

async function until(check: () => boolean, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return check()
}

test("the process it guards gone, the reaper ends what it left and exits, though its pipe is still open", {
  timeout: 120_000,
}, async () => {
  const guarded = sleeper()
  const left = sleeper()
  const reaper = spawn(process.execPath, [REAPER_ENTRY, "--guards", String(guarded.pid)], {
    stdio: ["pipe", "ignore", "ignore"],
  })
  started.push(reaper)
  let exited = false
  reaper.once("exit", () => {
    exited = true
  })
  reaper.stdin!.write(`${JSON.stringify({ id: 1, leftovers: { tree: left.pid } })}\n`)
  // The pipe is not closed: only the guarded process ends.
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(exited).toBe(false)
  guarded.kill("SIGKILL")
  expect(await until(() => exited, 60_000)).toBe(true)
  expect(await until(() => !isRunning(left.pid!), 30_000)).toBe(true)
})

test("while the process it guards runs, the reaper stays and ends nothing", { timeout: 120_000 }, async () => {
  const guarded = sleeper()
  const left = sleeper()
  const reaper = spawn(process.execPath, [REAPER_ENTRY, "--guards", String(guarded.pid)], {
    stdio: ["pipe", "ignore", "ignore"],
  })
  started.push(reaper)
  reaper.stdin!.write(`${JSON.stringify({ id: 1, leftovers: { tree: left.pid } })}\n`)
  // Three of its looks.
  await new Promise((resolve) => setTimeout(resolve, 3_500))
  expect(reaper.exitCode).toBeNull()
  expect(isRunning(left.pid!)).toBe(true)
  // Its pipe closed, it ends what is left, as before.
  reaper.stdin!.end()
  expect(await until(() => !isRunning(left.pid!), 30_000)).toBe(true)
})
