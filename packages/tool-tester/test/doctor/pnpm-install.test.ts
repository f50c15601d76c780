// doctor warns about a .opencode that pnpm installed: opencode's own npm install there fails
// slowly, and opencode starts about 100 s later (docs/scaffolding.md).
import path from "node:path"
import { describe, expect, test } from "vitest"
import { diagnose } from "../../src/doctor/diagnose.ts"
import { loadTools } from "../../src/load-tools.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

const tool = 'export default { description: "d", args: {}, async execute() { return "ok" } }\n'

async function pnpmFindings(files: Record<string, string>, cwd = (directory: string) => directory) {
  const directory = tmpProject({ ".opencode/tools/a.ts": tool, ...files })
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine: "node" })
  return diagnose(project, { cwd: cwd(directory) }).filter((finding) => finding.code === "PNPM_INSTALL")
}

describe("PNPM_INSTALL", () => {
  test("a .opencode whose node_modules pnpm laid out gets one warning naming the start-up delay", async () => {
    const findings = await pnpmFindings({ ".opencode/node_modules/.modules.yaml": "layoutVersion: 5\n" })
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ severity: "warning" })
    expect(findings[0]?.message).toContain("about 100 s later")
    expect(findings[0]?.message).toContain("npm, yarn or bun")
  })

  // npm 11.19 run over pnpm's node_modules stops with "Cannot read properties of null (reading
  // 'matches')": the advice deletes it (and pnpm's lock file, which would keep tool-tester naming
  // pnpm's commands) before the npm install, pointed at the folder from where doctor was run.
  test("the warning names what to delete and the npm install to run, from the folder doctor ran in", async () => {
    const files = {
      ".opencode/node_modules/.modules.yaml": "layoutVersion: 5\n",
      ".opencode/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    }
    const [fromProject] = await pnpmFindings(files)
    const modules = path.join(".opencode", "node_modules")
    const lock = path.join(".opencode", "pnpm-lock.yaml")
    expect(fromProject?.message).toContain(
      `delete ${modules} and ${lock}, then run npm install --prefix .opencode (npm cannot install over pnpm's node_modules)`,
    )
    const [fromInside] = await pnpmFindings(files, (directory) => path.join(directory, ".opencode"))
    expect(fromInside?.message).toContain("delete node_modules and pnpm-lock.yaml, then run npm install (npm")
  })

  // opencode's npm install runs in the global config folder too (`pnpm create tool --global` then
  // `pnpm install` there): every project's opencode started late, and doctor said nothing.
  test("a global config folder that pnpm installed is reported, with the npm install for it", async () => {
    const directory = tmpProject({ ".opencode/tools/a.ts": tool })
    const { env, home } = isolatedEnvironment({
      ".config/opencode/tools/b.ts": tool,
      ".config/opencode/node_modules/.modules.yaml": "layoutVersion: 5\n",
    })
    const project = await loadTools({ directory, env, home, engine: "node" })
    const global = path.join(home, ".config", "opencode")
    const findings = diagnose(project, { cwd: directory }).filter((finding) => finding.code === "PNPM_INSTALL")
    expect(findings.map((finding) => finding.file)).toEqual([path.join(global, "node_modules")])
    expect(findings[0]?.message).toContain(
      `delete ${path.join(global, "node_modules")}, then run npm install --prefix ${global.replaceAll("\\", "/")}`,
    )
  })

  test("an npm, yarn or bun install is not reported", async () => {
    expect(await pnpmFindings({ ".opencode/node_modules/.package-lock.json": "{}\n" })).toEqual([])
    expect(await pnpmFindings({})).toEqual([])
  })
})
