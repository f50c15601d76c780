// Whether the packages' build is up to date: a hash of everything the build reads (each package's
// sources, scripts, manifests and configs, the templates, the lockfile), kept after a build that
// succeeded. test.mjs skips the build (half a minute on two cores) when nothing it reads changed
// since then, so a second `pnpm test:fast` in a row starts testing at once; a fresh clone has no
// fingerprint and builds. The outputs' modification times are kept beside it: a build run another
// way since (one package's `npm run build`, perhaps of sources changed back since) builds again.
// Without git (a downloaded archive), the build always runs.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import path from "node:path"

/** What the build reads, relative to the repository; tests, docs and benches are left out. */
const INPUTS = [
  "packages",
  "templates",
  "scripts/shared-sources.mjs",
  "package.json",
  "pnpm-lock.yaml",
  "tsconfig.base.json",
]
const NOT_INPUTS = /(^|\/)(test|bench|docs)\/|\.md$/
/** What a build leaves, checked too: a dist folder removed by hand means building again. */
const OUTPUTS = [
  "packages/plugin/dist/index.js",
  "packages/create-tool/dist/cli.js",
  "packages/tool-tester/dist/cli/main.js",
  "packages/tool-tester/dist/engine/bun-serve.js",
]

/** The hash of the build's inputs, or undefined when git cannot list them. */
export function buildFingerprint(root) {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...INPUTS], {
    cwd: root,
    encoding: "utf8",
  })
  if (listed.status !== 0) return undefined
  const files = [...new Set(listed.stdout.split("\0").filter((file) => file !== "" && !NOT_INPUTS.test(file)))].sort()
  const hash = createHash("sha256")
  for (const file of files) {
    hash.update(`${file}\0`)
    // A file git still lists but that was deleted counts as its absence.
    const full = path.join(root, file)
    hash.update(existsSync(full) ? readFileSync(full) : "(deleted)")
    hash.update("\0")
  }
  return hash.digest("hex")
}

/** Where the fingerprint of the last build that succeeded is kept (ignored by git with node_modules). */
function stampFile(root) {
  return path.join(root, "node_modules", ".cache", "opencode-tool-kit", "build-fingerprint")
}

/** The fingerprint with the outputs as they are: absent ones make it undefined. */
function stampText(root, fingerprint) {
  const outputs = OUTPUTS.map((file) => path.join(root, file))
  if (fingerprint === undefined || !outputs.every((file) => existsSync(file))) return undefined
  return `${JSON.stringify({ fingerprint, outputs: outputs.map((file) => statSync(file).mtimeMs) })}\n`
}

/** True when the last successful build had these inputs and left the outputs as they are now. */
export function buildIsCurrent(root, fingerprint) {
  const expected = stampText(root, fingerprint)
  const stamp = stampFile(root)
  return expected !== undefined && existsSync(stamp) && readFileSync(stamp, "utf8") === expected
}

/** Keeps the fingerprint of a build that succeeded, with what it left. */
export function recordBuild(root, fingerprint) {
  const text = stampText(root, fingerprint)
  if (text === undefined) return
  mkdirSync(path.dirname(stampFile(root)), { recursive: true })
  writeFileSync(stampFile(root), text)
}
