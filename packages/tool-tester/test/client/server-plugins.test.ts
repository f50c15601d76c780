// The server behind input.client loads the project's npm plugins from a cache of its own, where
// the packages the project installed are linked in opencode's layout (server-plugins.ts): it never
// downloads them, and loads the code tool-tester loads.
import { existsSync, readlinkSync, realpathSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { linkProjectPlugins } from "../../src/client/server-plugins.ts"
import { useTmpDir } from "../helpers.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

const manifest = (name: string) => JSON.stringify({ name, version: "1.0.0", main: "index.js" })

describe("the npm plugins of the server behind input.client", () => {
  test("each npm plugin the configs name is linked, as the project installed it, where opencode would install it", () => {
    const directory = tmpProject({
      "opencode.json": JSON.stringify({
        plugin: ["plain-plugin", "pinned-plugin@2.0.0", ["@scope/scoped-plugin@^1", { option: true }], "not-installed"],
      }),
      ".opencode/plugins/local.ts": "export const Local = async () => ({})\n",
      "node_modules/plain-plugin/package.json": manifest("plain-plugin"),
      "node_modules/pinned-plugin/package.json": manifest("pinned-plugin"),
      "node_modules/@scope/scoped-plugin/package.json": manifest("@scope/scoped-plugin"),
    })
    const { env, home } = isolatedEnvironment()
    const cacheHome = useTmpDir()
    linkProjectPlugins({ directory, env: { ...env, HOME: home }, cacheHome })
    const packages = path.join(cacheHome, "opencode", "packages")
    const linked = (spec: string, name: string) =>
      realpathSync(readlinkSync(path.join(packages, spec, "node_modules", name)))
    expect(linked("plain-plugin@latest", "plain-plugin")).toBe(
      realpathSync(path.join(directory, "node_modules/plain-plugin")),
    )
    expect(linked("pinned-plugin@2.0.0", "pinned-plugin")).toBe(
      realpathSync(path.join(directory, "node_modules/pinned-plugin")),
    )
    expect(linked("@scope/scoped-plugin@^1", "@scope/scoped-plugin")).toBe(
      realpathSync(path.join(directory, "node_modules/@scope/scoped-plugin")),
    )
    // Not installed: left to the server (tool-tester reports it); a path plugin needs no install.
    expect(existsSync(path.join(packages, "not-installed@latest"))).toBe(false)
  })

  test("a config opencode cannot read links nothing (the server reports it)", () => {
    const directory = tmpProject({ "opencode.json": "{ not json", "node_modules/p/package.json": manifest("p") })
    const cacheHome = useTmpDir()
    linkProjectPlugins({ directory, env: isolatedEnvironment().env, cacheHome })
    expect(existsSync(path.join(cacheHome, "opencode"))).toBe(false)
  })
})
