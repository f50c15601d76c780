import { execFileSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { publint } from "publint"
import { describe, expect, test } from "vitest"

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

describe("the published package", () => {
  test("packs only dist, package.json, README and LICENSE", () => {
    const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: packageDirectory,
      encoding: "utf8",
      env: { ...process.env, npm_config_loglevel: "silent" },
    })
    const files: string[] = JSON.parse(output)[0].files.map((file: { path: string }) => file.path)
    expect(files.filter((file) => !file.startsWith("dist/")).sort()).toEqual(["LICENSE", "README.md", "package.json"])
    expect(files).toEqual(
      expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/tool.js", "dist/tool.d.ts"]),
    )
  })

  test("has exports that resolve for import and for types, according to publint", async () => {
    // npm packs as pnpm does here (the files list); publint's "auto" picks pnpm from the repository's
    // packageManager and fails where pnpm is not on PATH (`npx -y pnpm@...`, a vitest started directly).
    const { messages } = await publint({ pkgDir: packageDirectory, level: "suggestion", pack: "npm" })
    expect(messages).toEqual([])
  })
})
