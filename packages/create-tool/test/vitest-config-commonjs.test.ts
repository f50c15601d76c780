import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { scaffold } from "../src/scaffold.ts"
import { linkWorkspacePackages, run, templatesDirectory, useTmpDir, workspaceDirectory } from "./helpers.ts"

const vitest = join(workspaceDirectory, "node_modules/vitest/vitest.mjs")

describe("the watch config and the typecheck in a .opencode folder whose package.json stays CommonJS", () => {
  test("is vitest.config.mjs, which vitest loads there (a .js one it would load with require() and fail)", async () => {
    const directory = useTmpDir()
    const root = join(directory, ".opencode")
    mkdirSync(root)
    writeFileSync(join(root, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`)
    const result = await scaffold({ name: "hello", directory, templatesDirectory })
    expect(
      result.files.map((file) => file.path.slice(root.length + 1)).filter((path) => path.startsWith("vitest")),
    ).toEqual(["vitest.config.mjs"])
    expect(result.notes).toEqual([expect.stringMatching(/package\.json: kept your "type" as it is\.$/)])
    expect(existsSync(join(root, "vitest.config.js"))).toBe(false)
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).type).toBe("commonjs")

    linkWorkspacePackages(root)
    const tested = await run(process.execPath, [vitest, "run"], { cwd: root, timeout: 300_000 })
    expect(tested.code, `${tested.stdout}${tested.stderr}`).toBe(0)
    expect(tested.stdout).toMatch(/Tests\s+\S*\d+ passed/)

    // The typecheck script it adds passes too: the tsconfig reads modules as Bun runs them
    // (module Preserve), not by the package's "type", under which NodeNext refused the test's
    // import.meta and top-level await.
    const tsc = join(workspaceDirectory, "node_modules/typescript/bin/tsc")
    const typecheck = await run(process.execPath, [tsc, "--noEmit"], { cwd: root, timeout: 300_000 })
    expect(typecheck.code, `${typecheck.stdout}${typecheck.stderr}`).toBe(0)
  }, 300_000)

  test("a vitest.config.js already there is kept, and no second config is added", async () => {
    const directory = useTmpDir()
    const root = join(directory, ".opencode")
    mkdirSync(root)
    writeFileSync(join(root, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`)
    writeFileSync(join(root, "vitest.config.js"), "module.exports = {}\n")
    const result = await scaffold({ name: "hello", directory, templatesDirectory })
    expect(result.files.find((file) => file.path.includes("vitest.config"))).toMatchObject({
      path: join(root, "vitest.config.js"),
      status: "kept",
    })
    expect(existsSync(join(root, "vitest.config.mjs"))).toBe(false)
  })
})
