#!/usr/bin/env node
// The `tool-tester` bin, started by Node (npm's Windows shims and every package manager's links
// run it as `node bin.js`), or by Bun when a user runs it so. It checks the Node version before
// loading the CLI, which needs a recent Node and would fail on an older one with an error that says
// nothing about versions: keep this file in syntax any Node since 14 parses. Where Node has a
// module compile cache (22.1 and later), the CLI's code is compiled once, not on every run.
import module from "node:module"

if (typeof module.enableCompileCache === "function") module.enableCompileCache()
// Run by Bun: in a Bun without auto-install, which fetches what an import cannot find (bun-host.ts).
var host = typeof process.versions.bun === "string" ? import("./dist/cli/bun-host.js") : Promise.resolve(undefined)
host.then((bun) => {
  if (bun?.rerunWithoutAutoInstall()) return
  return import("./dist/cli/node-version.js").then((check) => {
    var problem = check.nodeVersionProblem(process.versions.node)
    if (problem) {
      process.stderr.write(`${problem}\n`)
      process.exitCode = check.EXIT_NODE_TOO_OLD
    } else {
      import("./dist/cli/main.js")
    }
  })
})
