// What doctor advises for a file that does not import: the whole-list sentence only for tool files,
// path aliases named as aliases, and under the node engine, files only Bun loads named as needing
// the bun engine (warnings: opencode loads them). Imports are used: TypeScript drops unused ones.
import { describe, expect, test } from "vitest"
import { diagnose } from "../../src/doctor/diagnose.ts"
import { loadTools } from "../../src/load-tools.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

async function doctor(files: Record<string, string>) {
  const directory = tmpProject(files)
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine: "node" })
  return diagnose(project, { cwd: directory }).filter((finding) => finding.code === "IMPORT_FAILED")
}

const goodTool = 'export default { description: "d", args: {}, async execute() { return "ok" } }\n'
const plugin = (name: string) => `export const P = async () => ({})\n${name}`

describe("a file that does not import", () => {
  test("a tool file is said to take the whole tool list down; a plugin only itself", async () => {
    const [toolFinding] = await doctor({ ".opencode/tools/broken.ts": 'throw new Error("at import")\n' })
    expect(toolFinding?.message).toContain("opencode fails its whole tool list when one file does not import")
    const [pluginFinding] = await doctor({
      ".opencode/tools/fine.ts": goodTool,
      ".opencode/plugins/broken.ts": plugin('throw new Error("at import")'),
    })
    expect(pluginFinding?.severity).toBe("error")
    expect(pluginFinding?.message).not.toContain("whole tool list")
    expect(pluginFinding?.message).toContain("goes on without this plugin")
  })

  test("a path alias no tsconfig.json maps is named as one, with the paths hint, not npm install", async () => {
    const [finding] = await doctor({
      ".opencode/tools/aliased.ts": `import { x } from "@/core/workspace-git.js"\nexport const y = x\n${goodTool}`,
    })
    expect(finding?.severity).toBe("error")
    expect(finding?.message).toContain("@/core is a path alias, not a package")
    expect(finding?.message).toContain('"compilerOptions": { "paths"')
    expect(finding?.message).not.toContain("npm install")
  })

  test("a path alias a tsconfig.json maps needs the bun engine under Node (a warning)", async () => {
    const [finding] = await doctor({
      "tsconfig.json": JSON.stringify({ compilerOptions: { paths: { "~/*": ["./src/*"] } } }),
      "src/lib/y.ts": "export const y = 2\n",
      ".opencode/tools/aliased.ts": `import { y } from "~/lib/y"\nexport const z = y\n${goodTool}`,
    })
    expect(finding?.severity).toBe("warning")
    expect(finding?.message).toContain("needs the bun engine: install opencode or put it on PATH")
  })

  test("a package Bun built for Bun needs the bun engine under Node (a warning, exit 0)", async () => {
    const findings = await doctor({
      "opencode.json": JSON.stringify({ plugin: ["bun-built"] }),
      "node_modules/bun-built/package.json": JSON.stringify({ name: "bun-built", type: "module", main: "index.js" }),
      "node_modules/bun-built/index.js":
        'var __require = import.meta.require;\nconst path = __require("path");\nexport const P = async () => ({})\n',
    })
    expect(findings).toEqual([
      expect.objectContaining({
        severity: "warning",
        message: expect.stringContaining("built by Bun for Bun"),
      }),
    ])
    expect(findings[0]?.message).toContain("needs the bun engine: install opencode or put it on PATH")
  })

  test("an extensionless relative import inside a package needs the bun engine under Node", async () => {
    const findings = await doctor({
      "opencode.json": JSON.stringify({ plugin: ["ext-less"] }),
      "node_modules/ext-less/package.json": JSON.stringify({ name: "ext-less", type: "module", main: "index.js" }),
      "node_modules/ext-less/index.js": 'export { P } from "./plugin"\n',
      "node_modules/ext-less/plugin.js": "export const P = async () => ({})\n",
    })
    expect(findings).toEqual([expect.objectContaining({ severity: "warning" })])
    expect(findings[0]?.message).toContain("imports plugin without its extension (plugin.js)")
    expect(findings[0]?.message).toContain("needs the bun engine")
  })
})
