#!/usr/bin/env node
// Checks the Node version before loading the CLI, which needs a recent Node and would fail on an
// older one with an error that says nothing about versions. Keep this file in syntax any Node
// since 14 parses.
import { EXIT_NODE_TOO_OLD, nodeVersionProblem } from "./dist/cli/node-version.js"

const problem = nodeVersionProblem(process.versions.node)
if (problem) {
  process.stderr.write(`${problem}\n`)
  process.exitCode = EXIT_NODE_TOO_OLD
} else {
  import("./dist/cli/main.js")
}
