#!/usr/bin/env node
// The `tool-tester` bin, started by Node (npm's Windows shims and every package manager's links
// run it as `node bin.js`), or by Bun when a user runs it so. It checks the Node version before
// loading the CLI, which needs a recent Node and would fail on an older one with an error that says
// nothing about versions: keep this file in syntax any Node since 14 parses. Where Node has a
// module compile cache (22.1 and later), the CLI's code is compiled once, not on every run.
import module from "node:module"
import fs from "node:fs"
import { EXIT_NODE_TOO_OLD, nodeVersionProblem } from "./dist/cli/node-version.js"

/**
 * The opencode version tool-tester models, as src/opencode/opencode-version.ts says (the CLI's
 * `--version` in src/cli/main.ts repeats it too; test/cli/usage.test.ts checks all agree).
 */
const MODELLED_OPENCODE = "1.18.34"

if (typeof module.enableCompileCache === "function") module.enableCompileCache()
const problem = nodeVersionProblem(process.versions.node)
if (problem) {
  process.stderr.write(`${problem}\n`)
  process.exitCode = EXIT_NODE_TOO_OLD
} else if (!answeredVersion()) {
  // Run by Bun: in a Bun without auto-install, which fetches what an import cannot find (bun-host.ts).
  const host = typeof process.versions.bun === "string" ? import("./dist/cli/bun-host.js") : Promise.resolve(undefined)
  host.then((bun) => {
    if (!(bun && bun.rerunWithoutAutoInstall())) import("./dist/cli/main.js")
  })
}

/**
 * `tool-tester --version` (or `-v`), answered here with one synchronous write: under Node, loading
 * the CLI, a stdout stream and its flush for it took ~4 ms more (bench/cli-cold-start.ts); under
 * Bun, it also started a second Bun (bun-host.ts), ~0.2 s in all.
 * False when it was not asked, or the write failed (a full disk, a closed pipe, any descriptor a
 * synchronous write cannot take): the CLI then answers, and reports a failed write as it does for
 * every command. A line this short is never written in part: a pipe takes it whole or not at all.
 */
function answeredVersion() {
  const flag = process.argv[2]
  if (flag !== "--version" && flag !== "-v") return false
  const manifest = JSON.parse(fs.readFileSync(new URL("./package.json", import.meta.url), "utf8"))
  const line = Buffer.from(`${manifest.version} (models opencode ${MODELLED_OPENCODE})\n`)
  try {
    let written = 0
    while (written < line.length) written += fs.writeSync(1, line, written)
    return true
  } catch {
    return false
  }
}
