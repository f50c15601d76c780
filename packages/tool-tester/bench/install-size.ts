// What installing tool-tester takes on disk: the packed package installed with npm into an empty
// folder, and a project scaffolded by create-tool (default template) after `npm install --prefix
// .opencode`; each beside the same install plus what fuzz, preflight and dev need (the optional
// peers, which tool-tester brought as dependencies before), measured in the same run.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/install-size.ts
//
// Needs the npm registry. "bytes" is the sum of file sizes; "on disk" the blocks the file system
// gave them (the same as bytes on Windows). Target: the core at most 24.5 MB (20 MB before
// cross-spawn, which, read-cmd-shim, diff and verify's probes, 1.1 MB together, and photon-node,
// 2.3 MB, the library opencode shrinks images with).

import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import { biggestPackages, diskUsage, megabytes } from "./_disk-usage.ts"

benchArgs(import.meta.url, {})
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const packages = path.resolve(packageRoot, "..")
const manifest = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8"))
const extras = Object.entries<string>(manifest.peerDependencies)
  .filter(([name]) => name !== "vitest")
  .map(([name, range]) => `${name}@${range.replace(/^\^/, "")}`)
const work = mkdtempSync(path.join(os.tmpdir(), "install-size-"))

function sh(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr}`)
}

function pack(name: string): string {
  const destination = path.join(work, "tarballs", name)
  sh("npx", ["-y", "pnpm@10.34.9", "pack", "--pack-destination", destination], path.join(packages, name))
  return path.join(destination, readdirSync(destination)[0] as string)
}

const tarballs = { toolTester: pack("tool-tester"), plugin: pack("plugin"), createTool: pack("create-tool") }
const npmInstall = ["install", "--no-audit", "--no-fund"]

function core(withExtras: boolean): string {
  const folder = path.join(work, withExtras ? "core-extras" : "core")
  mkdirSync(folder)
  sh("npm", [...npmInstall, tarballs.toolTester, ...(withExtras ? extras : [])], folder)
  return path.join(folder, "node_modules")
}

function scaffolded(withExtras: boolean): string {
  const project = path.join(work, withExtras ? "project-extras" : "project")
  mkdirSync(path.join(project, ".opencode"), { recursive: true })
  sh(
    "npm",
    ["exec", "--yes", `--package=${tarballs.createTool}`, "--", "create-tool", "greet", "--no-interactive"],
    project,
  )
  const file = path.join(project, ".opencode", "package.json")
  const scaffold = JSON.parse(readFileSync(file, "utf8"))
  scaffold.dependencies["@opencode-ai/plugin"] = `file:${tarballs.plugin}`
  scaffold.devDependencies["@opencode-ai/tool-tester"] = `file:${tarballs.toolTester}`
  writeFileSync(file, JSON.stringify(scaffold, null, 2))
  sh("npm", [...npmInstall, "--prefix", ".opencode"], project)
  if (withExtras) sh("npm", [...npmInstall, "--prefix", ".opencode", "-D", ...extras], project)
  return path.join(project, ".opencode", "node_modules")
}

try {
  const rows = [
    { name: "tool-tester alone", folder: core(false), baseline: core(true) },
    { name: "scaffolded .opencode (default template)", folder: scaffolded(false), baseline: scaffolded(true) },
  ]
  console.log("npm install, node_modules: now | with fuzz/preflight/dev's packages (as before) | ratio")
  for (const row of rows) {
    const now = diskUsage(row.folder)
    const before = diskUsage(row.baseline)
    console.log(
      `${row.name.padEnd(40)} ${megabytes(now.bytes).padStart(9)} | ${megabytes(before.bytes).padStart(9)} | ${(now.bytes / before.bytes).toFixed(2)}x   on disk ${megabytes(now.allocated)} | ${megabytes(before.allocated)}`,
    )
    console.log(
      `  biggest: ${biggestPackages(row.folder, 8)
        .map(({ name, bytes }) => `${name} ${megabytes(bytes)}`)
        .join(", ")}`,
    )
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
