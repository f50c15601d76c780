// Installs the opencode binary for this machine, at the version tool-tester is checked against,
// into node_modules/<platform package> at the root of the workspace, where the tests find it
// (findOpencode: the platform package resolvable from tool-tester). On Linux x64 pnpm installs it
// already (the root package.json's optionalDependencies); macOS and Windows run this once after
// `pnpm install` (the CI workflow does), so the bun engine, e2e, eval and input.client tests run
// there too. A platform without that version published (opencode-windows-x64 has no 1.18.34) gets
// the newest of the same minor version before it, and says so. Not an optionalDependency for every
// platform: the frozen lockfile would need a registry entry that some platforms do not have.
//
//   node scripts/install-opencode.mjs [--version X.Y.Z]
import { spawnSync } from "node:child_process"
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const { values } = parseArgs({ options: { version: { type: "string" } } })
const version = values.version ?? modelledVersion()
const platform = process.platform === "win32" ? "windows" : process.platform
const name = `opencode-${platform}-${process.arch}`
const target = path.join(root, "node_modules", name)
const binary = path.join(target, "bin", process.platform === "win32" ? "opencode.exe" : "opencode")

// Whatever build is there stays, unless --version asks for another.
if (
  installedVersion() !== undefined &&
  existsSync(binary) &&
  (values.version ?? installedVersion()) === installedVersion()
) {
  console.log(`${name}@${installedVersion()} is installed (${path.relative(root, binary)})`)
  process.exit(0)
}

const work = path.join(root, "node_modules", ".cache", "install-opencode")
mkdirSync(work, { recursive: true })
const folder = mkdtempSync(path.join(work, "pack-"))
try {
  console.log(`installing ${name}@${version} (about 180 MB) into ${path.relative(root, target)}`)
  if (!/^[\w.+-]+$/.test(version)) fail(`"${version}" is not a version`)
  let packed = npm(["pack", "--silent", `${name}@${version}`], folder)
  const installing = packed.status === 0 ? version : publishedBefore(version, folder)
  if (installing !== version) {
    // Not every platform gets every build (opencode-windows-x64 has no 1.18.34): the newest of the
    // same minor version before it, said, so a difference it makes in a test is not a mystery.
    console.log(`${name}@${version} is not published: installing ${installing}, the newest before it`)
    packed = npm(["pack", "--silent", `${name}@${installing}`], folder)
  }
  if (packed.status !== 0) fail(`npm pack ${name}@${installing} failed: ${(packed.stderr || packed.stdout).trim()}`)
  const tarball = readdirSync(folder).find((file) => file.endsWith(".tgz"))
  if (tarball === undefined) fail(`npm pack ${name}@${version} wrote no tarball`)
  // tar ships with Windows 10 and later, macOS and Linux. A relative name: GNU tar (Git Bash)
  // would read "C:" in an absolute Windows path as a remote host.
  const extracted = spawnSync("tar", ["-xzf", tarball], { cwd: folder, encoding: "utf8" })
  if (extracted.status !== 0) fail(`could not extract ${tarball}: ${extracted.stderr.trim()}`)
  rmSync(target, { recursive: true, force: true })
  cpSync(path.join(folder, "package"), target, { recursive: true })
  if (process.platform !== "win32") chmodSync(binary, 0o755)
  console.log(`installed ${name}@${installedVersion()} (${path.relative(root, binary)})`)
} finally {
  rmSync(folder, { recursive: true, force: true })
}

/** npm, which is npm.cmd on Windows: only a shell starts it there (the arguments hold no character a shell reads). */
function npm(args, cwd) {
  return spawnSync("npm", args, { cwd, encoding: "utf8", shell: process.platform === "win32" })
}

/** The newest published version of the same major and minor before `wanted`, or `wanted` when none. */
function publishedBefore(wanted, cwd) {
  const listed = npm(["view", name, "versions", "--json"], cwd)
  let versions = []
  try {
    versions = [].concat(JSON.parse(listed.stdout))
  } catch {
    return wanted
  }
  const parts = (text) => text.split(".").map(Number)
  const [major, minor, patch] = parts(wanted)
  const before = versions
    .filter((candidate) => /^\d+\.\d+\.\d+$/.test(candidate))
    .map(parts)
    .filter(([a, b, c]) => a === major && b === minor && c < patch)
    .sort((x, y) => y[2] - x[2])
  return before.length === 0 ? wanted : before[0].join(".")
}

function modelledVersion() {
  const source = readFileSync(path.join(root, "packages/tool-tester/src/opencode/opencode-version.ts"), "utf8")
  const match = /MODELLED_OPENCODE_VERSION = "([^"]+)"/.exec(source)
  if (match === null) fail("no MODELLED_OPENCODE_VERSION in packages/tool-tester/src/opencode/opencode-version.ts")
  return match[1]
}

function installedVersion() {
  try {
    return JSON.parse(readFileSync(path.join(target, "package.json"), "utf8")).version
  } catch {
    return undefined
  }
}

function fail(message) {
  console.error(`install-opencode: ${message}`)
  process.exit(1)
}
