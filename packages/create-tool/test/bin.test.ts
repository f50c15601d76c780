import { type ChildProcess, spawn } from "node:child_process"
import { closeSync, existsSync, openSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { isolatedHome } from "../../tool-tester/test/support/isolated-home.ts"
import { binFile, cleanEnvironment, runBin, runCli, useTmpDir } from "./helpers.ts"

// What only the built bin shows: the exit status the process ends with, and that what the command
// line printed reaches the pipes whole before it exits. The command lines' logic is tested
// in-process (cli.test.ts); these run the same lines through `node bin.js` and expect the same.
describe("the built bin", () => {
  test("a scaffold exits 0 with the summary on stdout, as the in-process run prints it", async () => {
    const cwd = useTmpDir()
    const bin = await runBin(["hello"], { cwd })
    expect([bin.code, bin.stderr]).toEqual([0, ""])
    expect(readFileSync(join(cwd, ".opencode/tools/hello.ts"), "utf8")).toContain("export default tool(")
    const again = useTmpDir()
    const inProcess = await runCli(["hello"], { cwd: again })
    expect(bin.stdout.replaceAll(cwd, "<cwd>")).toBe(inProcess.stdout.replaceAll(again, "<cwd>"))
  })

  test("bad input exits 1 with one line on stderr and nothing written", async () => {
    const cwd = useTmpDir()
    const bin = await runBin([], { cwd })
    expect(bin.code).toBe(1)
    expect(bin.stdout).toBe("")
    expect(bin.stderr).toMatch(/^✖ Missing the tool name: .* \[MISSING_NAME\]\n$/)
    expect(existsSync(join(cwd, ".opencode"))).toBe(false)
  })

  test("a reader that closes stdout before the summary (| head, | true) turns no success into a failure", async () => {
    const cwd = useTmpDir()
    // Closed long before the bin has loaded: its summary meets a pipe with no reader (EPIPE).
    const { code, stderr } = await scaffoldWithStdout(cwd, "pipe", (child) => child.stdout?.destroy())
    expect([code, stderr]).toEqual([0, ""])
    expect(readFileSync(join(cwd, ".opencode/tools/hello.ts"), "utf8")).toContain("export default tool(")
  })

  test.skipIf(process.platform !== "linux")(
    "output that cannot be written (a full disk) is said in one line, with exit 1 (Linux only: /dev/full)",
    async () => {
      const full = openSync("/dev/full", "w")
      const { code, stderr } = await scaffoldWithStdout(useTmpDir(), full, () => closeSync(full))
      expect([code, stderr]).toEqual([1, "✖ Cannot write create-tool's output: ENOSPC.\n"])
    },
  )

  test("--version and --help exit 0 with their text", async () => {
    const cwd = useTmpDir()
    const version = await runBin(["--version"], { cwd })
    expect([version.code, version.stderr]).toEqual([0, ""])
    expect(version.stdout).toMatch(/^create-tool \d+\.\d+\.\d+/)
    const help = await runBin(["--help"], { cwd })
    expect([help.code, help.stderr]).toEqual([0, ""])
    expect(help.stdout).toBe((await runCli(["--help"], { cwd })).stdout)
  })
})

/** `node bin.js hello` in `cwd` with `stdout` as its stdout, `started` called once it is spawned: its status and stderr. */
async function scaffoldWithStdout(
  cwd: string,
  stdout: "pipe" | number,
  started: (child: ChildProcess) => void,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [binFile, "hello", "--no-interactive"], {
    cwd,
    env: { ...cleanEnvironment(), ...isolatedHome(useTmpDir("create-tool-home-")) },
    stdio: ["ignore", stdout, "pipe"],
  })
  started(child)
  let stderr = ""
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
  return { code, stderr }
}
