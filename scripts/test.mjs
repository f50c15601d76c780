// The README's test command: build every package, run every test (a JSON report for .ci/run),
// then print how long it all took, so a slow machine or a slow change shows.
import { spawnSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const started = performance.now()
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: "inherit" }).status ?? 1

// pnpm sets npm_execpath to itself when it runs this script.
const pnpm = process.env.npm_execpath
const built = pnpm ? run(process.execPath, [pnpm, "run", "build"]) : run("npx", ["-y", "pnpm@10.34.9", "run", "build"])
const buildSeconds = (performance.now() - started) / 1000
let status = built
if (built === 0) {
  status = run(process.execPath, [
    path.join(root, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=.vitest-report.json",
    ...process.argv.slice(2),
  ])
}
const total = (performance.now() - started) / 1000
console.log(
  `test command: ${total.toFixed(0)} s (build ${buildSeconds.toFixed(0)} s, tests ${(total - buildSeconds).toFixed(0)} s)`,
)
process.exit(status)
