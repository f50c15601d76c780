import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { matchesGlobs } from "../src/_glob-match.ts"
import { nextStepCommands, runCli, useTmpDir } from "./helpers.ts"

// A plugin package scaffolded by yarn 2+ inside a yarn project (a root with "workspaces" and a
// yarn.lock). Checked by hand with yarn 4.18.1 running each printed step: outside the workspaces,
// `yarn config set nodeLinker` wrote the root's .yarnrc.yml and `yarn` stopped ("doesn't seem to be
// part of the project declared in"); inside them, the steps from the root installed, tested and ran
// the tool. Here, fake roots: what is written and printed.

const yarn4 = { npm_config_user_agent: "yarn/4.18.1 npm/? node/v20.19.0 linux x64" }
const rootManifest = `${JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }, null, 2)}\n`

function yarnRoot(yarnrc = "enableTelemetry: false\n"): string {
  const root = useTmpDir()
  writeFileSync(join(root, "package.json"), rootManifest)
  writeFileSync(join(root, "yarn.lock"), "# yarn lockfile v1\n")
  writeFileSync(join(root, ".yarnrc.yml"), yarnrc)
  mkdirSync(join(root, "packages"))
  return root
}

test("a plugin package in a yarn workspace runs its steps from the root, with yarn workspace", async () => {
  const root = yarnRoot()
  const created = await runCli(["opencode-weather", "--plugin", "--dir", "packages", "--no-interactive"], {
    cwd: root,
    env: yarn4,
  })
  expect(created.code, created.stderr).toBe(0)
  expect(nextStepCommands(created.stdout)).toEqual([
    "yarn config set nodeLinker node-modules",
    "yarn install",
    "yarn workspace opencode-weather test",
    "yarn workspace opencode-weather tool-tester run weather --plugin . --dir . input=hello",
  ])
  expect(created.stdout).toContain(
    `is a workspace of the yarn project ${root} (its "workspaces" take "packages/opencode-weather" in)`,
  )
  expect(created.stdout).toContain("switches all of it to node_modules")
  // A yarn.lock would cut it out of the workspace.
  expect(existsSync(join(root, "packages/opencode-weather/yarn.lock"))).toBe(false)
  expect(readFileSync(join(root, "package.json"), "utf8")).toBe(rootManifest)
})

test("a yarn workspace on node_modules already gets no linker step; from elsewhere, a cd to the root", async () => {
  const root = yarnRoot('nodeLinker: "node-modules"\n')
  const created = await runCli(["@me/opencode-weather", "--plugin", "--no-interactive", "--no-test", "--js"], {
    cwd: join(root, "packages"),
    env: yarn4,
  })
  expect(created.code, created.stderr).toBe(0)
  expect(nextStepCommands(created.stdout)).toEqual([
    "cd ..",
    "yarn install",
    "yarn dlx @opencode-ai/tool-tester run weather --plugin packages/opencode-weather --dir packages/opencode-weather input=hello",
  ])
  expect(created.stdout).not.toContain("Plug'n'Play")
})

test("a plugin package outside a yarn project's workspaces gets an empty yarn.lock, and a note on the other way", async () => {
  const root = yarnRoot()
  const created = await runCli(["opencode-weather", "--plugin", "--no-interactive"], { cwd: root, env: yarn4 })
  expect(created.code, created.stderr).toBe(0)
  const folder = join(root, "opencode-weather")
  expect(readFileSync(join(folder, "yarn.lock"), "utf8")).toBe("")
  expect(nextStepCommands(created.stdout)).toEqual([
    "cd opencode-weather",
    "yarn config set nodeLinker node-modules",
    "yarn",
    "yarn test",
    "yarn tool-tester run weather --plugin . --dir . input=hello",
  ])
  expect(created.stdout).toContain(
    `${folder} is inside the yarn project ${root} but not in its "workspaces", so yarn would not install it: its empty yarn.lock makes it a project of its own; to make it a workspace instead, delete that yarn.lock and add "opencode-weather" to "workspaces" in ${join(root, "package.json")}.`,
  )
  expect(readFileSync(join(root, "package.json"), "utf8")).toBe(rootManifest)
})

test("npm in a yarn workspace root, and yarn in a folder of its own, write and print what they did before", async () => {
  const root = yarnRoot()
  const npm = await runCli(["opencode-weather", "--plugin", "--no-interactive"], { cwd: root })
  expect(npm.code, npm.stderr).toBe(0)
  expect(existsSync(join(root, "opencode-weather/yarn.lock"))).toBe(false)
  expect(nextStepCommands(npm.stdout)[1]).toBe("npm install")
  const alone = useTmpDir()
  const yarn = await runCli(["opencode-weather", "--plugin", "--no-interactive"], { cwd: alone, env: yarn4 })
  expect(yarn.code, yarn.stderr).toBe(0)
  expect(existsSync(join(alone, "opencode-weather/yarn.lock"))).toBe(false)
  expect(yarn.stdout).not.toContain("yarn project")
})

test("workspace globs: one segment per *, any number per **, braces, ! exclusions, dot-folders only by name", () => {
  expect(matchesGlobs("packages/a", ["packages/*"])).toBe(true)
  expect(matchesGlobs("packages/a/b", ["packages/*"])).toBe(false)
  expect(matchesGlobs("packages/a/b", ["packages/**"])).toBe(true)
  expect(matchesGlobs("tools/x", ["./tools/x/"])).toBe(true)
  expect(matchesGlobs("apps/web", ["{apps,libs}/*"])).toBe(true)
  expect(matchesGlobs("packages/a", ["packages/*", "!packages/a"])).toBe(false)
  expect(matchesGlobs("plugins/a", ["packages/*"])).toBe(false)
  expect(matchesGlobs("a.b/c", ["a?b/*"])).toBe(true)
  expect(matchesGlobs("axb/c", ["a.b/*"])).toBe(false)
  // As the package managers' globbing: a dot-folder only when a pattern names it.
  expect(matchesGlobs("packages/.cache", ["packages/*"])).toBe(false)
  expect(matchesGlobs("packages/.cache", ["packages/.cache"])).toBe(true)
})
