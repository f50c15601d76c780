import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import { runCli } from "../helpers.ts"
import { programOnPath } from "../support/program-on-path.ts"
import { tmpProject } from "../support/tmp-project.ts"

// A machine with no opencode and no Bun: `auto` falls back to node.
vi.mock("../../src/engine-client/find-bun.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/engine-client/find-bun.ts")>()),
  findBun: () => undefined,
}))
// Nothing in tool-tester's cache either, unless a test puts it there (`cached`).
const cached: { binary: string | undefined } = { binary: undefined }
vi.mock("../../src/opencode/opencode-binary.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/opencode/opencode-binary.ts")>()),
  findOpencode: () => undefined,
  cachedOpencode: () => cached.binary,
}))

const greet = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Greet", args: { name: tool.schema.string() }, async execute(args) { return "hi " + args.name } })
`

describe("tool-tester e2e --init with no opencode or Bun here", { timeout: 120_000 }, () => {
  // First: loadTools() prints its own notice once per process.
  test("--json keeps stderr free of the notice and prints one document", async () => {
    const directory = tmpProject({ ".opencode/tools/greet.ts": greet })
    // The library writes its notice to this process's stderr, which the in-process CLI shares.
    const written = vi.spyOn(process.stderr, "write")
    onTestFinished(() => written.mockRestore())
    const init = await runCli(["e2e", "--init", "--json"], { cwd: directory })
    expect(init.exitCode, init.stderr).toBe(0)
    expect(init.stderr).toBe("")
    expect(written.mock.calls.map(([text]) => String(text)).filter((text) => text.includes("no opencode"))).toEqual([])
    expect(JSON.parse(init.stdout)).toEqual({ script: path.join(directory, "e2e.json"), tools: ["greet"] })
    expect(existsSync(path.join(directory, "e2e.json"))).toBe(true)
  })
  test("writes the script from a Node load, with a notice in e2e's words (the library's names loadTools()) and a command that downloads opencode", async () => {
    const directory = tmpProject({ ".opencode/tools/greet.ts": greet })
    const init = await runCli(["e2e", "--init"], { cwd: directory })
    expect(init.exitCode, init.stderr).toBe(0)
    expect(init.stderr).toBe(
      "tool-tester: no opencode or Bun found, so the tools were loaded on Node to read their arguments\n",
    )
    // The command it prints runs the script: it downloads the opencode to run it in.
    expect(init.stdout).toBe(
      "Wrote e2e.json: one call to greet, with example arguments to edit.\n" +
        "Run it: npx @opencode-ai/tool-tester e2e --script e2e.json --opencode-version 1.18.34\n" +
        "(no opencode found here: --opencode-version downloads opencode 1.18.34 into tool-tester's cache, once, about 180 MB)\n",
    )
  })
  // A Bun user's machine: a bun on PATH (not taken on its own, so still Node), but "no Bun" would be wrong.
  test("with a bun on PATH, the notice says only that no opencode was found", async () => {
    const directory = tmpProject({ ".opencode/tools/greet.ts": greet })
    const { env } = programOnPath("bun")
    const init = await runCli(["e2e", "--init"], {
      cwd: directory,
      env: { PATH: `${env.PATH}${path.delimiter}${process.env["PATH"] ?? ""}` },
    })
    expect(init.exitCode, init.stderr).toBe(0)
    expect(init.stderr).toBe(
      "tool-tester: no opencode found, so the tools were loaded on Node to read their arguments\n",
    )
  })
  // A cache that has it (an earlier --opencode-version, or the bun engine's install): no download.
  test("with opencode in tool-tester's cache already, the line says it runs from there", async () => {
    const directory = tmpProject({ ".opencode/tools/greet.ts": greet })
    cached.binary = "/cache/opencode-linux-x64@1.18.34/node_modules/opencode-linux-x64/bin/opencode"
    onTestFinished(() => {
      cached.binary = undefined
    })
    const init = await runCli(["e2e", "--init"], { cwd: directory })
    expect(init.exitCode, init.stderr).toBe(0)
    expect(init.stdout).toBe(
      "Wrote e2e.json: one call to greet, with example arguments to edit.\n" +
        "Run it: npx @opencode-ai/tool-tester e2e --script e2e.json --opencode-version 1.18.34\n" +
        "(no opencode found here: --opencode-version runs opencode 1.18.34 from tool-tester's cache, where it is already)\n",
    )
  })
})
