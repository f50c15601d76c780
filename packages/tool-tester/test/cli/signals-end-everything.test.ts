// Nothing a command started outlives it, whatever ends it (docs/cli.md#signals): Ctrl-C, SIGTERM
// and SIGHUP end the engine even when a tool keeps it busy in a loop (it runs no code of ours
// then, so it cannot notice that the CLI went), and a CLI killed with SIGKILL, which runs no code
// at all, leaves nothing either: its reaper ends the engine. Spawned from the built bin: only the
// bin shows signals and what is left running.
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { exitStatusOfSignal } from "../../src/engine-client/spawn-engine.ts"
import { opencode, packageRoot, useTmpDir } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import { tmpProject } from "../support/tmp-project.ts"

// Writes this process's id where PIDFILE says, then never lets its event loop run again: at import
// with SPIN_AT=import (list), in execute otherwise (run, fuzz).
const spinning = `import { writeFileSync } from "node:fs"
const spin = () => { writeFileSync(process.env.PIDFILE, String(process.pid)); for (;;) {} }
if (process.env.SPIN_AT === "import") spin()
export default { description: "spins", args: {}, async execute() { spin() } }
`

type Case = { command: string[]; signal: NodeJS.Signals; spinAt: "import" | "execute" }

const cases: Case[] = [
  { command: ["run", "spin"], signal: "SIGINT", spinAt: "execute" },
  { command: ["run", "spin"], signal: "SIGTERM", spinAt: "execute" },
  { command: ["run", "spin"], signal: "SIGHUP", spinAt: "execute" },
  { command: ["run", "spin"], signal: "SIGKILL", spinAt: "execute" },
  { command: ["list"], signal: "SIGTERM", spinAt: "import" },
  { command: ["fuzz", "spin", "--runs", "3"], signal: "SIGINT", spinAt: "execute" },
]

const engines = [
  { name: "node", flags: ["--engine", "node"], reason: undefined },
  {
    name: "bun",
    flags: ["--engine", "bun", "--engine-binary", opencode.binary ?? ""],
    reason: opencode.reason,
  },
]

// POSIX signals: Windows has no SIGHUP or SIGKILL to send from here (a parent killed there closes
// its handles, which the reaper sees the same way).
describe.skipIf(process.platform === "win32")("a signal to the CLI ends a busy engine", { timeout: 240_000 }, () => {
  describe.each(engines)("$name engine", (engine) => {
    test.skipIf(engine.reason !== undefined).each(cases)(
      `$signal to \`$command\` while a tool spins ends the engine (${engine.reason ?? "here"})`,
      async ({ command, signal, spinAt }) => {
        const directory = tmpProject({ ".opencode/tools/spin.ts": spinning })
        const pidFile = path.join(useTmpDir(), "engine.pid")
        const child = spawn(process.execPath, [path.join(packageRoot, "bin.js"), ...command, ...engine.flags], {
          cwd: directory,
          env: { ...process.env, NO_COLOR: "1", PIDFILE: pidFile, SPIN_AT: spinAt },
          stdio: ["ignore", "pipe", "pipe"],
        })
        let stderr = ""
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
        child.stdout.resume()
        const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          child.once("exit", (code, ended) => resolve({ code, signal: ended })),
        )
        await expect
          .poll(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", { timeout: 120_000 })
          .toBe(true)
        const enginePid = Number(readFileSync(pidFile, "utf8"))
        try {
          expect(isRunning(enginePid)).toBe(true)
          child.kill(signal)
          const exit = await ended
          // Ended by the signal itself, as shells expect (they report 128 + its number), or with that status.
          expect(exit.signal === signal || exit.code === exitStatusOfSignal(signal), JSON.stringify(exit)).toBe(true)
          if (signal !== "SIGKILL") expect(stderr).toContain(`interrupted (${signal})`)
          await expect.poll(() => isRunning(enginePid), { timeout: 60_000, interval: 100 }).toBe(false)
        } finally {
          killProcess(enginePid)
        }
      },
    )
  })
})
