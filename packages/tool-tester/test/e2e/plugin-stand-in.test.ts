// e2e on a project that lists only plugins, however tool-tester was installed: without any
// @opencode-ai/plugin to link (npx installs tool-tester without it), the run gets a stand-in.
import { mkdtempSync, realpathSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, onTestFinished, test } from "vitest"
import { pluginPackageFor } from "../../src/opencode/plugin-package.ts"
import { packageRoot } from "../helpers.ts"

function tempFolder(): string {
  const folder = realpathSync(mkdtempSync(path.join(os.tmpdir(), "tool-tester-stand-in-")))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}

describe("the @opencode-ai/plugin package an e2e run links", () => {
  test("is the installed one when tool-tester has it", async () => {
    const found = await pluginPackageFor(tempFolder(), tempFolder(), path.join(packageRoot, "src", "e2e"))
    expect(realpathSync(found)).toBe(realpathSync(path.join(packageRoot, "node_modules", "@opencode-ai", "plugin")))
  })

  test("is a working stand-in when neither the project nor tool-tester has one", async () => {
    const sandbox = tempFolder()
    const standIn = await pluginPackageFor(tempFolder(), sandbox, tempFolder())
    expect(path.dirname(standIn)).toBe(sandbox)
    const plugin = (await import(pathToFileURL(path.join(standIn, "index.js")).href)) as {
      tool: ((input: unknown) => unknown) & { schema: { string: () => { parse: (value: unknown) => unknown } } }
    }
    const definition = { description: "d", args: {}, execute: async () => "ok" }
    expect(plugin.tool(definition)).toBe(definition)
    expect(plugin.tool.schema.string().parse("x")).toBe("x")
  })
})
