#!/usr/bin/env node
// The Node.js check comes first, written so that any Node parses it, and the CLI is imported only
// after it: on an older Node the CLI would fail with a syntax or API error that says nothing useful.
// Keep the minimum in step with "engines" in package.json (a test checks it).
var minimum = [20, 19, 0]
var found = process.versions.node.split(".").map(Number)
if (found[0] < minimum[0] || (found[0] === minimum[0] && found[1] < minimum[1])) {
  process.stderr.write(
    "\u2716 create-tool needs Node.js " +
      minimum.join(".") +
      " or newer, and this is Node.js " +
      process.versions.node +
      ": install a current Node.js (https://nodejs.org, or nvm install 22) and run it again. [UNSUPPORTED_NODE]\n",
  )
  process.exit(1)
}
import("./dist/cli.js")
