// Why every synchronous stat goes through src/_file-stats.ts: in Node, a plain stat of a FIFO
// changes how the next require resolves a linked package (pnpm's layout), for the rest of the
// process. This once failed a CLI test with "Cannot find module 'isexe'", a file after the test of
// a plugin that is a FIFO, in the same process.
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, statSync, symlinkSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { statOf } from "../src/_file-stats.ts"
import { packageRoot, useTmpDir, writeFiles } from "./helpers.ts"

const posix = process.platform !== "win32"

/**
 * Packages laid out as pnpm does (each in a store folder beside its dependencies, linked into the
 * project), with one of them already loaded, so that Node's realpath cache holds the folders above;
 * and a FIFO. `load(name)` requires a package from the project.
 */
function linkedPackages() {
  const root = useTmpDir("tool-tester-file-stats-")
  writeFiles(root, {
    "store/node_modules/first/index.js": "module.exports = 'first'",
    "store/node_modules/linked/index.js": "module.exports = require('dependency')",
    "store/node_modules/dependency/index.js": "module.exports = 'dependency'",
    "project/index.js": "",
    "project/node_modules/.keep": "",
  })
  for (const name of ["first", "linked"]) {
    symlinkSync(path.join(root, "store/node_modules", name), path.join(root, "project/node_modules", name), "dir")
  }
  const load = createRequire(path.join(root, "project/index.js"))
  expect(load("first")).toBe("first")
  const fifo = path.join(root, "fifo")
  execFileSync("mkfifo", [fifo])
  return { fifo, load }
}

describe("stats that leave module resolution alone", () => {
  test.skipIf(!posix)("after statOf() of a FIFO, a linked package still finds its dependency (POSIX: mkfifo)", () => {
    const { fifo, load } = linkedPackages()
    expect(statOf(fifo).isFIFO()).toBe(true)
    expect(load("linked")).toBe("dependency")
  })

  // Node's own behaviour, which the one above works around: if this starts to pass, Node fixed it.
  test.skipIf(!posix)("after a plain statSync() of a FIFO, Node loads the package by its link (POSIX: mkfifo)", () => {
    const { fifo, load } = linkedPackages()
    expect(statSync(fifo).isFIFO()).toBe(true)
    expect(() => load("linked")).toThrow(/Cannot find module 'dependency'/)
  })

  test("no source file asks for stats synchronously but through _file-stats.ts", () => {
    const offenders: string[] = []
    for (const pkg of ["tool-tester", "create-tool", "plugin"]) {
      const src = path.join(packageRoot, "..", pkg, "src")
      for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".ts") || path.basename(file) === "_file-stats.ts") continue
        const text = readFileSync(path.join(src, file), "utf8")
        if (/\b(statSync|lstatSync|fstatSync)\(/.test(text)) offenders.push(`${pkg}/src/${file}`)
      }
    }
    expect(offenders).toEqual([])
  })
})
