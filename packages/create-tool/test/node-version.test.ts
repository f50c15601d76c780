import { readdirSync, readFileSync, realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { Script } from "node:vm"
import { expect, test } from "vitest"
import { runsGeneratedTests, testNodeVersions } from "../src/package-json-for.ts"
import { binFile, packageDirectory, run, useTmpDir, workspaceDirectory } from "./helpers.ts"

// bin.js checks the Node.js version before it loads anything else, and the generated projects say
// which Node.js their test needs.

const fakeNode = join(packageDirectory, "test/fixtures/fake-node-version.cjs")
const runOn = (version: string, args: string[], cwd: string) =>
  run(process.execPath, ["--require", fakeNode, binFile, ...args], { cwd, env: { FAKE_NODE_VERSION: version } })

test.each(["20.12.2", "18.20.4", "16.0.0"])(
  "on Node.js %s: one line naming the versions and the fix, exit code 1, nothing written",
  async (version) => {
    const cwd = useTmpDir()
    const { code, stdout, stderr } = await runOn(version, ["hello"], cwd)
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toBe(
      `✖ create-tool needs Node.js 20.19.0 or newer, and this is Node.js ${version}: install a current Node.js (https://nodejs.org, or nvm install 22) and run it again. [UNSUPPORTED_NODE]\n`,
    )
    expect(readdirSync(cwd)).toEqual([])
  },
)

test("the minimum in bin.js is the one package.json's engines gives", () => {
  const source = readFileSync(binFile, "utf8")
  const minimum = /var minimum = \[(\d+), (\d+), (\d+)\]/.exec(source)!.slice(1).join(".")
  const { engines } = JSON.parse(readFileSync(join(packageDirectory, "package.json"), "utf8"))
  expect(`>=${minimum.replace(/\.0$/, "")}`).toBe(engines.node)
})

test("bin.js is a plain script up to its check: an old Node parses it, as CommonJS too", () => {
  const source = readFileSync(binFile, "utf8").replace(/^#!.*\n/, "")
  expect(() => new Script(source)).not.toThrow()
  expect(source).not.toMatch(/\b(?:const|let)\b|=>|`|\?\.|\?\?/)
})

test("on a Node.js create-tool runs on but the generated test does not, the summary says so", async () => {
  const cwd = useTmpDir()
  const { code, stdout } = await runOn("22.3.0", ["hello"], cwd)
  expect(code).toBe(0)
  expect(stdout).toContain(
    "! The test needs Node.js ^20.19.0 || >=22.12.0 (vitest 4), and this is Node.js 22.3.0: update Node.js before running it.",
  )
  expect((await runOn("22.12.0", ["other"], cwd)).stdout).not.toContain("The test needs")
  expect((await runOn("22.3.0", ["third", "--no-test"], cwd)).stdout).not.toContain("The test needs")
})

test("the generated test's Node.js range is what vitest's vite and rolldown ask for", () => {
  const vitest = realpathSync(join(workspaceDirectory, "node_modules/vitest/package.json"))
  const requireFromVitest = createRequire(vitest)
  for (const name of ["vite", "rolldown"]) {
    const fromVite = createRequire(requireFromVitest.resolve("vite/package.json"))
    const path =
      name === "vite" ? requireFromVitest.resolve("vite/package.json") : fromVite.resolve(`${name}/package.json`)
    expect(JSON.parse(readFileSync(path, "utf8")).engines.node, name).toBe(testNodeVersions)
  }
})

test.each([
  ["20.19.0", true],
  ["20.18.3", false],
  ["21.7.3", false],
  ["22.11.0", false],
  ["22.12.0", true],
  ["24.0.0", true],
])("Node.js %s runs the generated test: %s", (version, expected) => {
  expect(runsGeneratedTests(version)).toBe(expected)
})
