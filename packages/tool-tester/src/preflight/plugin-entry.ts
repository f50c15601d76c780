// The module opencode imports from an installed plugin package, found in the tarball as opencode
// finds it on disk (docs/opencode-contract.md#plugin-entries): exports["./server"] (a string, or
// its import/default), else main, else module, else the folder's index file. exports["."] is never
// read.
import { existsSync } from "node:fs"
import path from "node:path"
import type { Finding } from "../doctor/finding.ts"
import type { PackedPackage } from "./pack-package.ts"
import { PACKERS } from "./packer.ts"

export type PluginEntry = {
  /** The entry file in the tarball, relative to the package (`dist/index.js`). */
  file: string
  /** Which field named it: `exports["./server"]`, `main`, `module`, or `index file`. */
  field: string
}

const INDEX_FILES = ["index.ts", "index.tsx", "index.js", "index.mjs", "index.cjs"]
/** What Bun tries after a `main` written without its extension. */
const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs", ".cjs", "/index.ts", "/index.js"]

/** The entry opencode would read, or the ENTRY_NOT_PACKED finding that says why there is none in the tarball. */
export function pluginEntry(packed: PackedPackage): { entry?: PluginEntry; findings: Finding[] } {
  const files = new Set(packed.files.map((file) => file.path))
  const manifestFile = path.join(packed.directory, "package.json")
  const named = namedEntry(packed.manifest)
  if (named === undefined) {
    const index = INDEX_FILES.find((file) => files.has(file))
    if (index) return { entry: { file: index, field: "index file" }, findings: [] }
    return {
      findings: [
        {
          code: "ENTRY_NOT_PACKED",
          severity: "error",
          file: manifestFile,
          message: `package.json has no "main", "module" or exports["./server"], and the tarball has no index.{ts,js}: opencode finds no entry and skips the package without a word (exports["."] is not read): add "main"`,
        },
      ],
    }
  }
  const relative = path.posix.normalize(named.value.replace(/^\.\//, ""))
  const found = EXTENSIONS.map((extension) => relative + extension).find((file) => files.has(file))
  if (found) return { entry: { file: found, field: named.field }, findings: [] }
  return {
    findings: [
      {
        code: "ENTRY_NOT_PACKED",
        severity: "error",
        file: manifestFile,
        message: `${relative}, the entry opencode reads (${named.field}), is not in the tarball, so users get no tools: ${entryHint(packed, relative)}`,
        data: { entry: relative, field: named.field, files: [...files] },
      },
    ],
  }
}

// --- internal ---

function namedEntry(manifest: Record<string, unknown>): { value: string; field: string } | undefined {
  const exportsField = manifest["exports"]
  if (typeof exportsField === "object" && exportsField !== null) {
    const server = (exportsField as Record<string, unknown>)["./server"]
    if (typeof server === "string") return { value: server, field: 'exports["./server"]' }
    if (typeof server === "object" && server !== null) {
      for (const condition of ["import", "default"]) {
        const value = (server as Record<string, unknown>)[condition]
        if (typeof value === "string") return { value, field: `exports["./server"].${condition}` }
      }
    }
  }
  for (const field of ["main", "module"]) {
    const value = manifest[field]
    if (typeof value === "string") return { value, field }
  }
  return undefined
}

function entryHint(packed: PackedPackage, entry: string): string {
  const folder = entry.split("/")[0] ?? entry
  const listed = packed.manifest["files"]
  const notListed =
    Array.isArray(listed) &&
    !listed.some((pattern) => typeof pattern === "string" && pattern.replace(/^\.\//, "").split("/")[0] === folder)
  const addToFiles = `add "${folder}" to "files" in package.json`
  // Not on disk either: the build comes first, else the next preflight says the same thing again.
  const built = EXTENSIONS.some((extension) => existsSync(path.join(packed.directory, entry + extension)))
  if (!built) {
    // The publish that will run the prepack is the packer's (pnpm publish, yarn npm publish).
    const build = `${entry} is not on disk either: build the package (a prepack script that builds makes ${PACKERS[packed.packer].publish} do it)`
    return notListed ? `${build}, and ${addToFiles}` : build
  }
  if (notListed) return addToFiles
  return "it is built but left out: check .npmignore (and the files list of package.json)"
}
