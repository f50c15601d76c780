// What importing the built main entry loads: a test that calls runTool pays for none of e2e, fuzz,
// lint, preflight or the inspector, nor for the packages only they use. Node itself lists the
// modules: a resolve hook, registered before the import, records every URL it resolves.
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, expect, test } from "vitest"

const packageDirectory = fileURLToPath(new URL("..", import.meta.url))
const folder = mkdtempSync(path.join(os.tmpdir(), "main-entry-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The URLs an import of `entry` (a file of the build) resolves, in a fresh Node. */
function modulesLoadedBy(entry: string): string[] {
  const log = path.join(folder, `${path.basename(path.dirname(entry))}-${path.basename(entry)}.log`)
  writeFileSync(log, "")
  const hooks = path.join(folder, "hooks.mjs")
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs"
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  appendFileSync(${JSON.stringify(log)}, result.url + "\\n")
  return result
}
`,
  )
  const register = path.join(folder, "register.mjs")
  writeFileSync(
    register,
    `import { register } from "node:module"\nregister(${JSON.stringify(pathToFileURL(hooks).href)})\n`,
  )
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      pathToFileURL(register).href,
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(pathToFileURL(path.join(packageDirectory, entry)).href)})`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  )
  expect(result.status, result.stderr).toBe(0)
  return [...new Set(readFileSync(log, "utf8").split("\n").filter(Boolean))].map((url) =>
    url.startsWith("file:") ? fileURLToPath(url).split(path.sep).join("/") : url,
  )
}

const apart = [
  /\/dist\/(e2e|fuzz|lint|preflight|inspector)\//,
  /\/node_modules\/(fast-check|hono|@hono|publint|@publint|@arethetypeswrong)\//,
]

test("importing the main entry loads no e2e, fuzz, lint, preflight or inspector module, nor their packages", () => {
  const loaded = modulesLoadedBy("dist/index.js")
  // It did load the library (the build bundles it into a few chunks) and zod: the list is real.
  expect(loaded).toEqual(
    expect.arrayContaining([expect.stringMatching(/\/dist\/index\.js$/), expect.stringMatching(/\/zod\//)]),
  )
  // Nor does it load their code through a shared chunk of the build.
  const source = loaded
    .filter((file) => file.includes("/dist/"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n")
  for (const name of ["fuzzTool", "runE2E", "lintProject"]) expect(source).not.toContain(`function ${name}(`)
  expect(loaded.filter((url) => apart.some((pattern) => pattern.test(url)))).toEqual([])
})

test.each([
  // fast-check itself only when fuzzTool runs (src/fuzz/_fast-check.ts).
  ["dist/fuzz/index.js", "fuzzTool"],
  ["dist/e2e/index.js", "runE2E"],
  ["dist/lint/index.js", "lintProject"],
])("%s loads what the main entry leaves out (%s)", (entry, name) => {
  const source = modulesLoadedBy(entry)
    .filter((file) => file.includes("/dist/"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n")
  expect(source).toContain(`function ${name}(`)
})
