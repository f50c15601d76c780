// Ctrl-C in verify removes its throw-away folders (docs/cli.md#verify): the probe copies opencode
// runs in and tool-tester's replay sandboxes. The CLI exits once the first lane has stopped, before
// the other lanes reach their own clean-up, so those folders are guarded (removed at exit) as the
// e2e sandboxes are. Spawned from the built bin: only the bin shows what a signal leaves.
import { spawn } from "node:child_process"
import { readdirSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { opencode, packageRoot, useTmpDir } from "../helpers.ts"

const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.startsWith("tool-tester-"))

test.skipIf(process.platform === "win32" || opencode.binary === undefined)(
  `Ctrl-C while several probe runs are under way leaves none of verify's folders (${opencode.reason ?? "here"})`,
  { timeout: 240_000 },
  async () => {
    const temporary = useTmpDir("verify-interrupt-")
    const child = spawn(
      process.execPath,
      [path.join(packageRoot, "bin.js"), "verify", "truncation", "plugins", "--opencode", opencode.binary!],
      {
        cwd: temporary,
        env: { ...process.env, NO_COLOR: "1", TMPDIR: temporary, TEMP: temporary, TMP: temporary },
        stdio: ["ignore", "pipe", "pipe"],
      },
    )
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.stdout.resume()
    const ended = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    // Several lanes each in a probe copy of their own, and one replaying its run in tool-tester.
    const underWay = () => {
      const names = leftovers(temporary)
      const copies = names.filter((name) => name.startsWith("tool-tester-probe-copy-")).length
      return copies >= 2 && names.some((name) => name.startsWith("tool-tester-verify-"))
    }
    await expect.poll(underWay, { timeout: 180_000, interval: 100 }).toBe(true)
    child.kill("SIGINT")
    expect(await ended, stderr).toBe(130)
    expect(stderr).toContain("[INTERRUPTED]")
    expect(leftovers(temporary)).toEqual([])
  },
)
