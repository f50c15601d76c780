// A process that forks, calls setsid and exits, over and over (a "fork-hopper"), carries the
// engine's mark in every generation, yet each one lives only as long as a fork takes: it has
// exited, its child in no listing yet, by the time a look at the process table reads it. endMarked
// must still end it (docs/cli.md, "Processes a tool leaves behind"), and so must a run of the
// built bin whose tool started one. Seen by the beat the hopper writes: a generation count that
// stops once no generation is left.
import { spawn, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { ENGINE_MARK, endMarked, markedProcesses } from "../../src/runtime/process-tree.ts"
import { opencode, runBin, useTmpDir } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

/**
 * The hopper (`perl -e HOPPER <beat>`): each generation forks, leaves its child to go on in a
 * session of its own, and exits; the child writes the generation's number to `beat`. It stops by
 * itself after 30 s, or as soon as the folder of `beat` is gone (the test's cleanup). No
 * `$0 = ...`: Perl would write over the environment it was started with, in the memory that
 * /proc/<pid>/environ shows, and the mark with it.
 */
const HOPPER = `
use POSIX ();
my ($beat) = @ARGV;
my $end = time + 30;
my $n = 0;
while (time < $end) {
  exit 0 if fork();
  POSIX::setsid();
  $n++;
  open(my $f, ">", "$beat.new") or exit 0;
  print $f $n;
  close $f;
  rename("$beat.new", $beat) or exit 0;
}
`

// Linux only: elsewhere the environments come from ps, which takes longer to list and read them
// than a generation lives. Perl: Node and Bun cannot fork without starting a new program.
const reason =
  process.platform !== "linux"
    ? "Linux: elsewhere ps reads environments slower than a fork-hopper forks"
    : spawnSync("perl", ["-e", "1"]).status !== 0
      ? "needs perl, to fork without starting a new program"
      : undefined

/** The last generation the hopper wrote (0 before the first). */
function generation(beat: string): number {
  try {
    return Number(readFileSync(beat, "utf8")) || 0
  } catch {
    return 0
  }
}

/** Whether another generation follows `seen` within 2 s (a generation takes a few ms, a fork under load rarely 100). */
async function stillHopping(beat: string, seen: number): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  return generation(beat) !== seen
}

test.skipIf(reason !== undefined)(
  `endMarked ends marked processes that fork, call setsid and exit in a loop (${reason ?? "Linux"})`,
  { timeout: 120_000 },
  async () => {
    // Several at once: the look that catches one may miss another, and each must be caught.
    const folder = useTmpDir("tool-tester-hopper-")
    const beats = [1, 2, 3, 4].map((n) => path.join(folder, `beat-${n}`))
    const mark = `test-${process.pid}-${Math.random().toString(36).slice(2)}`
    for (const beat of beats) {
      spawn("perl", ["-e", HOPPER, beat], {
        env: { ...process.env, [ENGINE_MARK]: mark },
        detached: true,
        stdio: "ignore",
      }).unref()
    }
    await expect
      .poll(() => Math.min(...beats.map(generation)), { timeout: 60_000, interval: 20 })
      .toBeGreaterThanOrEqual(50)

    expect(endMarked(mark).length).toBeGreaterThanOrEqual(beats.length)
    const last = beats.map(generation)
    const hopping = await Promise.all(beats.map((beat, n) => stillHopping(beat, last[n]!)))
    expect(hopping, `generations ${last.join(", ")} were not the last`).toEqual(beats.map(() => false))
    expect(markedProcesses(mark)).toEqual([])
  },
)

/** A tool that starts the hopper (it inherits the engine's mark) and returns once it has hopped a while. */
const hopperTool = `import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { tool } from "@opencode-ai/plugin"

const beat = process.env.HOPPER_BEAT
const generation = () => { try { return Number(readFileSync(beat, "utf8")) || 0 } catch { return 0 } }

export default tool({
  description: "starts a process that forks, calls setsid and exits in a loop, and returns",
  args: {},
  async execute() {
    spawn("perl", ["-e", ${JSON.stringify(HOPPER)}, beat], { detached: true, stdio: "ignore" }).unref()
    for (let waited = 0; generation() < 50 && waited < 60_000; waited += 20) await new Promise((r) => setTimeout(r, 20))
    return String(generation())
  },
})
`

for (const engine of ["bun", "node"] as const) {
  const why = reason ?? (engine === "bun" ? opencode.reason : undefined)
  test.skipIf(why !== undefined)(
    `run --engine ${engine}: no generation of a fork-hopper the tool started outlives the bin (${why ?? "Linux"})`,
    { timeout: 180_000 },
    async () => {
      const beat = path.join(useTmpDir("tool-tester-hopper-"), "beat")
      const project = tmpProject({ ".opencode/tools/hopper.ts": hopperTool })
      const result = await runBin(["run", "hopper", "--no-global", "--json", "--engine", engine], {
        cwd: project,
        env: { HOPPER_BEAT: beat },
      })
      expect(result.exitCode, result.stderr).toBe(0)
      expect(Number((JSON.parse(result.stdout) as { output: string }).output)).toBeGreaterThanOrEqual(50)

      const last = generation(beat)
      expect(await stillHopping(beat, last), `generation ${last} was not the last`).toBe(false)
    },
  )
}
