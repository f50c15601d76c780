// doctor warns about a .opencode that pnpm installed: opencode's own npm install there fails
// slowly, and opencode starts about 100 s later (docs/scaffolding.md).
import { describe, expect, test } from "vitest"
import { diagnose } from "../../src/doctor/diagnose.ts"
import { loadTools } from "../../src/load-tools.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

const tool = 'export default { description: "d", args: {}, async execute() { return "ok" } }\n'

async function pnpmFindings(files: Record<string, string>) {
  const directory = tmpProject({ ".opencode/tools/a.ts": tool, ...files })
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine: "node" })
  return diagnose(project, { cwd: directory }).filter((finding) => finding.code === "PNPM_INSTALL")
}

describe("PNPM_INSTALL", () => {
  test("a .opencode whose node_modules pnpm laid out gets one warning naming the start-up delay", async () => {
    const findings = await pnpmFindings({ ".opencode/node_modules/.modules.yaml": "layoutVersion: 5\n" })
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ severity: "warning" })
    expect(findings[0]?.message).toContain("about 100 s later")
    expect(findings[0]?.message).toContain("npm, yarn or bun")
  })

  test("an npm, yarn or bun install is not reported", async () => {
    expect(await pnpmFindings({ ".opencode/node_modules/.package-lock.json": "{}\n" })).toEqual([])
    expect(await pnpmFindings({})).toEqual([])
  })
})
