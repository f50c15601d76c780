// eval writes its tool wrappers into a copy of the project. When `.opencode`, or a tool file, is an
// absolute link (a dotfiles setup), a copy that kept the link wrote the wrapper through it, over
// the user's own file. The copy is materialised: the user's files stay as they were.

import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { afterEach, describe, expect, it, vi } from "vitest"
import { copyFolder } from "../../src/opencode/copy-folder.ts"
import { createEvalWorld } from "../../src/eval/runner/eval-world.ts"
import { useTmpDir } from "../helpers.ts"
import { makeEvalHome } from "../support/eval-home.ts"

const secretTool = `export default {
  description: "The user's own secret tool",
  args: {},
  async execute() {
    return "secret"
  },
}
`
const linkedTool = `export const lookup = {
  description: "A tool file linked from elsewhere",
  args: {},
  async execute() {
    return "looked up"
  },
}
`

afterEach(() => vi.unstubAllEnvs())

describe("eval's copy of a project with links", () => {
  it("leaves the user's files alone when .opencode and a tool file are absolute links", {
    timeout: 120_000,
  }, async () => {
    const root = useTmpDir("tool-tester-eval-links-")
    const home = makeEvalHome({ providers: {} })
    home.use(vi.stubEnv)
    const dotfiles = path.join(root, "dotfiles")
    const project = path.join(root, "project")
    mkdirSync(path.join(dotfiles, "opencode", "tools"), { recursive: true })
    mkdirSync(path.join(dotfiles, "shared"), { recursive: true })
    mkdirSync(project)
    const secret = path.join(dotfiles, "opencode", "tools", "secret.ts")
    const linked = path.join(dotfiles, "shared", "lookup.ts")
    writeFileSync(secret, secretTool)
    writeFileSync(linked, linkedTool)
    symlinkSync(linked, path.join(dotfiles, "opencode", "tools", "lookup.ts"))
    // A link back up: a copy that followed it for ever would never end.
    symlinkSync(path.join(dotfiles, "opencode"), path.join(dotfiles, "opencode", "loop"))
    symlinkSync(path.join(dotfiles, "opencode"), path.join(project, ".opencode"))

    const world = await createEvalWorld({ directory: project, env: process.env })
    try {
      expect(world.problems).toEqual([])
      expect([...world.wrappedIds].sort()).toEqual(["lookup_lookup", "secret"])
      const copied = path.join(world.sandbox.project, ".opencode")
      expect(lstatSync(copied).isSymbolicLink()).toBe(false)
      expect(lstatSync(path.join(copied, "tools", "lookup.ts")).isSymbolicLink()).toBe(false)
      expect(readFileSync(path.join(copied, "tools", "secret.ts"), "utf8")).toContain("Written by tool-tester eval")
      expect(readFileSync(path.join(copied, "tools", "lookup.ts"), "utf8")).toContain("Written by tool-tester eval")
      expect(readFileSync(secret, "utf8")).toBe(secretTool)
      expect(readFileSync(linked, "utf8")).toBe(linkedTool)
    } finally {
      await world.sandbox.dispose()
      home.remove()
    }
    expect(readFileSync(secret, "utf8")).toBe(secretTool)
    expect(readFileSync(linked, "utf8")).toBe(linkedTool)
  })
})

describe("copyFolder", () => {
  it("materialises links to files and folders, links node_modules, and leaves out loops and dangling links", async () => {
    const root = useTmpDir("tool-tester-copy-folder-")
    const source = path.join(root, "source")
    const elsewhere = path.join(root, "elsewhere")
    mkdirSync(path.join(source, "node_modules", "pkg"), { recursive: true })
    mkdirSync(path.join(elsewhere, "folder"), { recursive: true })
    writeFileSync(path.join(elsewhere, "file.txt"), "file")
    writeFileSync(path.join(elsewhere, "folder", "inner.txt"), "inner")
    symlinkSync(path.join(elsewhere, "file.txt"), path.join(source, "file.txt"))
    symlinkSync(path.join(elsewhere, "folder"), path.join(source, "folder"))
    symlinkSync(source, path.join(source, "self"))
    symlinkSync(path.join(root, "nowhere"), path.join(source, "dangling"))

    const target = path.join(root, "target")
    await copyFolder(source, target)

    expect(lstatSync(path.join(target, "file.txt")).isFile()).toBe(true)
    expect(readFileSync(path.join(target, "file.txt"), "utf8")).toBe("file")
    expect(lstatSync(path.join(target, "folder")).isDirectory()).toBe(true)
    expect(readFileSync(path.join(target, "folder", "inner.txt"), "utf8")).toBe("inner")
    expect(lstatSync(path.join(target, "node_modules")).isSymbolicLink()).toBe(true)
    expect(statSync(path.join(target, "node_modules", "pkg")).isDirectory()).toBe(true)
    expect(() => lstatSync(path.join(target, "self"))).toThrow(/ENOENT/)
    expect(() => lstatSync(path.join(target, "dangling"))).toThrow(/ENOENT/)
  })
})
