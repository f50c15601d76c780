import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import {
  linkWorkspacePackages,
  printedToolIds,
  run,
  runCli,
  useTmpDir,
  workspaceDirectory,
  workspaceOpencode,
} from "./helpers.ts"

// The real opencode 1.18.34 binary (the workspace's optional dependency) runs what create-tool
// generates, driven by tool-tester e2e's scripted mock model: a plugin package listed by its folder
// path, as during development, and project tools with a permission rule on the shell template's ask.

const toolTester = join(workspaceDirectory, "packages/tool-tester/bin.js")
const opencodeBinary = workspaceOpencode.binary ?? ""
const hasOpencode = opencodeBinary !== ""
const skipped = workspaceOpencode.reason

type E2ECall = { tool: string; status: string; result: string; error: string | null }
type E2EResult = { tools: Array<{ function: { name: string } }>; calls: E2ECall[]; exitCode: number | null }

async function e2e(directory: string, calls: unknown[], extra: string[] = []): Promise<E2EResult> {
  const script = join(useTmpDir("create-tool-script-"), "script.json")
  writeFileSync(script, JSON.stringify({ turns: [{ calls }, { text: "done" }] }))
  const ran = await run(
    process.execPath,
    [toolTester, "e2e", "--dir", directory, "--script", script, "--opencode", opencodeBinary, "--json", ...extra],
    { cwd: directory, timeout: 120_000 },
  )
  return JSON.parse(ran.stdout) as E2EResult
}

test.skipIf(!hasOpencode)(
  `opencode loads a generated plugin package from its folder and runs its tool${skipped}`,
  async () => {
    const cwd = useTmpDir()
    const created = await runCli(["opencode-count", "--plugin", "-t", "python", "--no-interactive"], { cwd })
    expect(created.code).toBe(0)
    const root = join(cwd, "opencode-count")
    linkWorkspacePackages(root)
    const tsc = join(workspaceDirectory, "node_modules/typescript/bin/tsc")
    expect((await run(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root })).code).toBe(0)

    const project = join(cwd, "project")
    mkdirSync(project)
    const text = `it's "quoted"; $(echo no)`
    // The plugin's tool id is the package name without its opencode- prefix.
    expect(printedToolIds(created.stdout)).toEqual(["count"])
    const result = await e2e(project, [{ tool: "count", args: { text } }], ["--plugin", root])
    expect(result.tools.map((tool) => tool.function.name)).toContain("count")
    expect(result.calls).toHaveLength(1)
    expect(result.calls[0]).toMatchObject({ tool: "count", status: "completed" })
    expect(JSON.parse(result.calls[0]!.result)).toEqual({ text, words: 4, characters: text.length })
  },
  180_000,
)

test.skipIf(!hasOpencode)(
  `opencode runs a generated shell tool and applies permission rules to its ask${skipped}`,
  async () => {
    const cwd = useTmpDir()
    const created = await runCli(["runner", "-t", "shell", "--js", "--exports", "node", "--no-interactive"], { cwd })
    const [id] = printedToolIds(created.stdout)
    expect(id).toBe("runner_node")
    linkWorkspacePackages(join(cwd, ".opencode"))
    const argument = "a b; $(whoami)"
    const call = {
      tool: id,
      args: { command: process.execPath, args: ["-e", "process.stdout.write(process.argv[1])", argument] },
    }

    const allowed = await e2e(cwd, [call])
    expect(allowed.calls[0]).toMatchObject({ status: "completed", result: argument })

    const rules = JSON.stringify({ permission: { [id!]: { "*": "allow", [`${process.execPath} *`]: "deny" } } })
    const denied = await e2e(cwd, [call], ["--config", rules])
    expect(denied.calls[0]).toMatchObject({ status: "error" })
    expect(denied.calls[0]!.result).toContain("prevents you from using this specific tool call")
  },
  180_000,
)
