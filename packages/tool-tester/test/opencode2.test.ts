// opencode 2 named, not guessed: one clear finding per cause, nothing else lost.
import { describe, expect, onTestFinished, test } from "vitest"
import { diagnose } from "../src/doctor/diagnose.ts"
import { closeProject, loadTools } from "../src/index.ts"
import { isolatedEnvironment, tmpProject } from "./support/tmp-project.ts"

const goodTool = 'export default { description: "d", args: {}, async execute() { return "ok" } }\n'

async function load(files: Record<string, string>) {
  const directory = tmpProject({ ".opencode/tools/fine.ts": goodTool, ...files })
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine: "node" })
  onTestFinished(() => closeProject(project))
  return { project, findings: diagnose(project, { cwd: directory }) }
}

describe("a plugin written for opencode 2", () => {
  test("importing @opencode/plugin is one OPENCODE_2 error; the other tools still load", async () => {
    const { project, findings } = await load({
      ".opencode/plugins/v2.ts":
        'import { Plugin } from "@opencode/plugin"\nexport default Plugin.define({ id: "x", setup() {} })\n',
    })
    expect(project.tools.map((tool) => tool.id)).toEqual(["fine"])
    const found = findings.filter((finding) => finding.severity === "error")
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ code: "OPENCODE_2" })
    expect(found[0]?.message).toContain("opencode 2's plugin package")
    expect(found[0]?.message).toContain("tool-tester models opencode 1.x")
  })

  test("a default export from Plugin.define is one OPENCODE_2 error, not silence", async () => {
    const { project, findings } = await load({
      ".opencode/plugins/v2.ts": 'export default { id: "x", setup(ctx) { ctx.tool.transform(() => {}) } }\n',
    })
    expect(project.tools.map((tool) => tool.id)).toEqual(["fine"])
    expect(findings.filter((finding) => finding.code === "OPENCODE_2")).toEqual([
      expect.objectContaining({ severity: "error", message: expect.stringContaining("Plugin.define") }),
    ])
  })

  test("a plugins key in opencode.json is one OPENCODE_2 warning: opencode 1.x ignores it", async () => {
    const { findings } = await load({ "opencode.json": JSON.stringify({ plugins: ["./v2.ts"] }) })
    expect(findings).toEqual([
      expect.objectContaining({
        code: "OPENCODE_2",
        severity: "warning",
        message: expect.stringContaining('"plugins" key'),
      }),
    ])
  })
})
