// The README's test command: build every package, run every test (a JSON report for .ci/run),
// then print how long it all took, so a slow machine or a slow change shows. The build is skipped
// when nothing it reads changed since the last one that succeeded here (build-fingerprint.mjs).
//
// The tests run with a temp folder of their own (TMPDIR, TEMP and TMP), removed after them: the
// package managers and runtimes the tests start leave theirs behind (yarn 1 a `yarn--*` folder per
// command, Bun a `node-gyp` shim and an unpacked tarball per install, vitest its transform cache),
// about twenty per run, which piled up in the machine's temp folder. What the tests or this
// repository's code leave there is still reported first (temp-leftovers.mjs).
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { buildFingerprint, buildIsCurrent, recordBuild } from "./build-fingerprint.mjs"
import { leftoversLine, leftSince, tempSnapshot } from "./temp-leftovers.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const started = performance.now()
const run = (command, args, env = process.env) =>
  spawnSync(command, args, { cwd: root, stdio: "inherit", env }).status ?? 1

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
  const temp = mkdtempSync(path.join(os.tmpdir(), "test-run-"))
  status = run(
    process.execPath,
    [
      path.join(root, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      "--outputFile.json=.vitest-report.json",
      ...process.argv.slice(2),
    ],
    { ...process.env, TMPDIR: temp, TEMP: temp, TMP: temp },
  )
  // Something that ignored TMPDIR, then what was left in the run's own folder.
  for (const [left, folder] of [
    [leftSince(before), os.tmpdir()],
    [leftSince(new Set(), temp), temp],
  ]) {
    const line = leftoversLine(left, folder)
    if (line !== undefined) console.log(line)
  }
  // A process a test left running may still be writing there: a few tries, then say so and leave it.
  try {
    rmSync(temp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  } catch (error) {
    console.log(
      `warning: could not remove the tests' temp folder ${temp} (${error.code ?? error.message}): a process the tests started may still run; remove the folder when it ends`,
    )
  }
}
const total = (performance.now() - started) / 1000
console.log(
  `test command: ${total.toFixed(0)} s (build ${buildSeconds.toFixed(0)} s, tests ${(total - buildSeconds).toFixed(0)} s)`,
)
process.exit(status)
