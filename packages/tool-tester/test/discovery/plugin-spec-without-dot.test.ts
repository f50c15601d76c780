// A plugin spec without ./ is an npm package name, in opencode as here (docs/opencode-contract.md#plugin-specs):
// `--plugin extra.ts` beside a file extra.ts names the package extra.ts. The error says to write
// ./extra.ts, where it advised installing a package of that name.
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { resolvePluginEntry } from "../../src/discovery/plugin-spec.ts"
import { useTmpDir } from "../helpers.ts"

test("a spec without ./ that names a file or folder beside it says to write ./, not to install a package", () => {
  const project = useTmpDir()
  writeFileSync(path.join(project, "extra.ts"), "export const Extra = async () => ({})\n")
  mkdirSync(path.join(project, "my-plugin"))
  const base = { options: undefined, base: project, origin: "--plugin" }

  const file = resolvePluginEntry({ ...base, spec: "extra.ts" }, project)
  expect(file.success).toBe(false)
  if (file.success) return
  expect(file.error.code).toBe("PLUGIN_LOAD_FAILED")
  expect(file.error.message).toBe(
    `plugin extra.ts (from --plugin): names the npm package extra.ts, which is not installed, but ${path.join(project, "extra.ts")} is a file: a path starts with ./, ../ or /, so write ./extra.ts`,
  )
  const folder = resolvePluginEntry({ ...base, spec: "my-plugin" }, project)
  expect(folder.success ? "" : folder.error.message).toContain(
    "is a folder: a path starts with ./, ../ or /, so write ./my-plugin",
  )

  // With ./ it is the file; a name with nothing beside it keeps the install advice.
  expect(resolvePluginEntry({ ...base, spec: "./extra.ts" }, project)).toEqual({
    success: true,
    value: path.join(project, "extra.ts"),
  })
  const absent = resolvePluginEntry({ ...base, spec: "absent-plugin" }, project)
  expect(absent.success ? "" : absent.error.message).toContain("npm install --prefix .opencode absent-plugin")
})
