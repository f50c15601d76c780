// `tool-tester dev` used to start the browser opener with the inspector's URL, token included, as
// an argument: every local user could read it (`ps`, /proc) and drive the tools. The opener now
// gets a private file (0600 in a 0700 folder) that sends the browser on; the token never appears
// in a command line. Spawns the built bin with a recording opener first on the PATH.

import { spawn } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { packageRoot, useTmpDir } from "../helpers.ts"
import { launchChromium, makeProject, noChromium } from "./_inspector.ts"

const greet = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Greets", args: {}, async execute() { return "hi" } })
`

/** Resolves once `check` returns a value, polling every 100 ms (the test's own timeout bounds it). */
async function until<T>(check: () => T | undefined): Promise<T> {
  for (;;) {
    const value = check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.runIf(process.platform !== "win32")("tool-tester dev opening the browser", () => {
  it("hands the opener a private page, never the token", { timeout: 120_000 }, async () => {
    const project = makeProject({ ".opencode/tools/greet.ts": greet })
    const bin = useTmpDir("tool-tester-opener-")
    const log = path.join(bin, "opened.json")
    // What the opener was given, as its argv: xdg-open on Linux, open on macOS.
    const opener = `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)))\n`
    for (const name of ["xdg-open", "open"]) {
      writeFileSync(path.join(bin, name), opener)
      chmodSync(path.join(bin, name), 0o755)
    }
    const home = mkdtempSync(path.join(os.tmpdir(), "tool-tester-home-"))
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && key !== "CI" && !key.startsWith("OPENCODE_") && key !== "NODE_OPTIONS")
        env[key] = value
    }
    const child = spawn(process.execPath, [path.join(packageRoot, "bin.js"), "dev", "--json", "--no-global"], {
      cwd: project.directory,
      env: {
        ...env,
        PATH: `${bin}${path.delimiter}${env["PATH"] ?? ""}`,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, ".config"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    const exited = new Promise((resolve) => child.once("exit", resolve))
    try {
      const { url } = JSON.parse(await until(() => (stdout.includes("\n") ? stdout.split("\n")[0] : undefined))) as {
        url: string
      }
      const token = new URL(url).pathname.split("/")[1]!
      const argv = JSON.parse(
        await until(() => (existsSync(log) ? readFileSync(log, "utf8") || undefined : undefined)),
      ) as string[]
      expect(argv).toHaveLength(1)
      expect(argv.join(" ")).not.toContain(token)
      const page = argv[0]!
      expect(statSync(page).mode & 0o777).toBe(0o600)
      expect(statSync(path.dirname(page)).mode & 0o777).toBe(0o700)
      expect(readFileSync(page, "utf8")).toContain(url)
      if (noChromium === undefined) {
        // The page sends the browser on to the inspector.
        const browser = await launchChromium()
        try {
          const tab = await browser.newPage()
          await tab.goto(pathToFileURL(page).href)
          await tab.waitForURL(url, { timeout: 60_000 })
        } finally {
          await browser.close()
        }
      }
      child.kill("SIGINT")
      await exited
      expect(existsSync(page)).toBe(false)
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      await exited
      project.remove()
      rmSync(home, { recursive: true, force: true })
    }
  })
})
