import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { runCli, useTmpDir, workspaceDirectory } from "./helpers.ts"

// docs/publishing-a-plugin.md shows the package.json of a plugin; create-tool --plugin writes one.
// One piece of advice: the same checks before publishing, the same packages for them.

type Manifest = { scripts: Record<string, string>; devDependencies: Record<string, string> }

function documentedManifest(): Manifest {
  const page = readFileSync(join(workspaceDirectory, "docs/publishing-a-plugin.md"), "utf8")
  const start = page.indexOf("```json\n", page.indexOf("### `package.json`"))
  return JSON.parse(page.slice(start + "```json\n".length, page.indexOf("```", start + 7))) as Manifest
}

test("the documented prepublishOnly and devDependencies are the scaffolded ones", async () => {
  const cwd = useTmpDir()
  const created = await runCli(["opencode-weather", "--plugin", "--no-interactive"], { cwd })
  expect(created.code, created.stderr).toBe(0)
  const scaffolded = JSON.parse(readFileSync(join(cwd, "opencode-weather/package.json"), "utf8")) as Manifest
  const documented = documentedManifest()
  // The build through its script (the docs build with one tsconfig, the scaffold with tsconfig.build.json).
  expect(documented.scripts["prepublishOnly"]).toBe(scaffolded.scripts["prepublishOnly"])
  expect(documented.scripts["prepublishOnly"]).toMatch(/^npm run build && /)
  expect(Object.keys(documented.devDependencies)).toEqual(Object.keys(scaffolded.devDependencies))
}, 60_000)

test("the plugin package gets an MIT license and the description it was given", async () => {
  const cwd = useTmpDir()
  const created = await runCli(
    ["opencode-weather", "--plugin", "--no-interactive", "--description", "Get the weather for a city"],
    { cwd },
  )
  expect(created.code, created.stderr).toBe(0)
  const manifest = JSON.parse(readFileSync(join(cwd, "opencode-weather/package.json"), "utf8")) as Record<
    string,
    unknown
  >
  expect(manifest).toMatchObject({ license: "MIT", description: "Get the weather for a city" })
}, 60_000)

// yarn 2+'s `yarn npm publish` calls `prepublish` and `prepack` only (checked with yarn 4.9.2): a
// reader who pasted it published without the build and preflight of the scaffolded prepublishOnly.
test("the Publish section gives each manager's form, and yarn 2+ runs prepublishOnly itself", () => {
  const page = readFileSync(join(workspaceDirectory, "docs/publishing-a-plugin.md"), "utf8")
  const section = page.slice(page.indexOf("## Publish"), page.indexOf("\n## ", page.indexOf("## Publish") + 1))
  const template = JSON.parse(
    readFileSync(join(workspaceDirectory, "templates/_plugin/package.json"), "utf8"),
  ) as Manifest
  expect(Object.keys(template.scripts)).toContain("prepublishOnly")
  expect(Object.keys(template.scripts)).not.toContain("prepublish")
  expect(Object.keys(template.scripts)).not.toContain("prepack")
  for (const command of ["npm publish", "`pnpm publish`", "`yarn publish`", "`bun publish`"]) {
    expect(section).toContain(command)
  }
  expect(section).toContain("`yarn run prepublishOnly && yarn npm publish`")
})
