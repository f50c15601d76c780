import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseRegistrySpec } from "../../src/e2e/configured-plugins.ts"
import type { E2EResult } from "../../src/e2e/e2e-result.ts"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

// The fixture is a project that ran `npm install options-echo-plugin` and lists the package by
// name, with options, in its opencode.json. Its tool returns the options the plugin was given.
const project = fileURLToPath(new URL("../fixtures/e2e-npm-plugin", import.meta.url))
const tempParent = makeTempParent()
const script = { turns: [{ calls: [{ tool: "plugin_options", args: {} }] }, { text: "done" }] }
let installed: E2EResult
let missing: E2EResult

// Two real opencode runs (several seconds each) serve every test of this file.
beforeAll(async () => {
  installed = await runE2E({ directory: project, tempDirectory: tempParent.path, timeoutMs: 180_000, script })
  missing = await runE2E({
    directory: project,
    plugins: ["not-installed-plugin", "./no-such-plugin-folder"],
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
    script,
  })
}, 400_000)

afterAll(() => tempParent.remove())

function toolNames(result: E2EResult): string[] {
  return (result.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)
}

describe("runE2E with a plugin package named in opencode.json", () => {
  it("offers the installed package's tool, sorted among the built-ins as opencode sends it", () => {
    expect(toolNames(installed)).toEqual([
      "bash",
      "edit",
      "glob",
      "grep",
      "plugin_options",
      "read",
      "skill",
      "task",
      "todowrite",
      "webfetch",
      "write",
    ])
  })

  it("runs the call in the plugin, which got the options of its config entry; nothing is rerouted", () => {
    expect(installed.calls).toHaveLength(1)
    const call = installed.calls[0]
    expect(call?.as_run).toEqual({ name: "plugin_options", arguments: "{}" })
    expect(call?.status).toBe("completed")
    expect(call?.result).toBe('{"greeting":"hi"}')
    expect(installed.errors).toEqual([])
    expect(installed.exitCode).toBe(0)
  })

  it("reports a configured plugin opencode cannot load as an error, and still runs the others", () => {
    expect(missing.errors.filter((error) => error.source === "plugin")).toEqual([
      {
        source: "plugin",
        message: expect.stringMatching(
          /^plugin not-installed-plugin \(from the e2e config \(--plugin, --config\)\) is not installed in .*e2e-npm-plugin: opencode would install not-installed-plugin@latest from npm, which e2e does not do/,
        ),
      },
      {
        source: "plugin",
        message: expect.stringMatching(
          /^plugin .*no-such-plugin-folder \(from the e2e config \(--plugin, --config\)\): no such file or folder; fix the path$/,
        ),
      },
    ])
    expect(missing.calls[0]?.result).toBe('{"greeting":"hi"}')
  })

  it("leaves no throw-away folder behind", () => {
    expect(leftoverFolders(tempParent.path)).toEqual([])
  })
})

describe("parseRegistrySpec", () => {
  it("adds @latest to a bare name, as opencode does for its cache folder", () => {
    expect(parseRegistrySpec("my-plugin")).toEqual({ name: "my-plugin", cacheSpec: "my-plugin@latest" })
    expect(parseRegistrySpec("@scope/my-plugin")).toEqual({
      name: "@scope/my-plugin",
      cacheSpec: "@scope/my-plugin@latest",
    })
  })

  it("keeps a version, range or tag", () => {
    expect(parseRegistrySpec("my-plugin@1.2.3")).toEqual({ name: "my-plugin", cacheSpec: "my-plugin@1.2.3" })
    expect(parseRegistrySpec("@scope/my-plugin@next")).toEqual({
      name: "@scope/my-plugin",
      cacheSpec: "@scope/my-plugin@next",
    })
  })

  it("leaves file:, git, URL and alias specs to opencode", () => {
    for (const spec of ["file:../pkg", "github:me/plugin", "me/plugin", "https://x.test/p.tgz", "alias@npm:real"]) {
      expect(parseRegistrySpec(spec)).toBeUndefined()
    }
  })
})
