// What the tests left in the temp folder: the folders and files named as this repository's code and
// tests name theirs (tool-tester-*, create-tool-*), made while the tests ran and still there after.
// The product promises to leave nothing behind (a verify replay, an engine, a server's folder), and
// its tests remove what they make: a leftover is a leak in one or the other. test.mjs prints them
// after the run. A warning, not a failure: another run on the same machine (a second checkout's
// tests) shares the temp folder, and what it has open at that moment is not this run's.
import { readdirSync } from "node:fs"
import os from "node:os"

/** The names this repository's code and tests give what they make in the temp folder. */
const OURS = /^(tool-tester-|create-tool-)/

/** The entries of `folder` (default: the OS temp folder) named as ours, now. */
export function tempSnapshot(folder = os.tmpdir()) {
  return new Set(entries(folder).filter((name) => OURS.test(name)))
}

/** Those of ours in `folder` now that `before` did not have, sorted. */
export function leftSince(before, folder = os.tmpdir()) {
  return [...tempSnapshot(folder)].filter((name) => !before.has(name)).sort()
}

/** The one line test.mjs prints about `left` in `folder`, or undefined when nothing was left. */
export function leftoversLine(left, folder = os.tmpdir()) {
  if (left.length === 0) return undefined
  const shown = left.slice(0, 5).join(", ")
  const more = left.length > 5 ? ` and ${left.length - 5} more` : ""
  return `warning: the tests left ${left.length} item(s) in ${folder}: ${shown}${more}. A test or the code it ran did not remove what it made: find the prefix in the code, and remove the folder in the test's afterAll (registered in the describe, not in a hook)`
}

function entries(folder) {
  try {
    return readdirSync(folder)
  } catch {
    return []
  }
}
