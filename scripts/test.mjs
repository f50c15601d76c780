// The README's test command: build every package, run every test (a JSON report for .ci/run),
// then print how long it all took, so a slow machine or a slow change shows. The build is skipped
// when nothing it reads changed since the last one that succeeded here (build-fingerprint.mjs).
import { spawnSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { buildFingerprint, buildIsCurrent, recordBuild } from "./build-fingerprint.mjs"
import { leftoversLine, leftSince, tempSnapshot } from "./temp-leftovers.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const started = performance.now()
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: "inherit" }).status ?? 1

// pnpm sets npm_execpath to itself when it runs this script.
const pnpm = process.env.npm_execpath
const fingerprint = buildFingerprint(root)
let built = 0
if (buildIsCurrent(root, fingerprint)) {
  console.log("build: up to date (nothing it reads changed since the last build), skipped")
} else {
  built = pnpm ? run(process.execPath, [pnpm, "run", "build"]) : run("npx", ["-y", "pnpm@10.34.9", "run", "build"])
  if (built === 0) recordBuild(root, fingerprint)
}
const buildSeconds = (performance.now() - started) / 1000
let status = built
if (built === 0) {
  const before = tempSnapshot()
  status = run(process.execPath, [
    path.join(root, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=.vitest-report.json",
    ...process.argv.slice(2),
  ])
  const left = leftoversLine(leftSince(before))
  if (left !== undefined) console.log(left)
}
const total = (performance.now() - started) / 1000
console.log(
  `test command: ${total.toFixed(0)} s (build ${buildSeconds.toFixed(0)} s, tests ${(total - buildSeconds).toFixed(0)} s)`,
)
process.exit(status)
