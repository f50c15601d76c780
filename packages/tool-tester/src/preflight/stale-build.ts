// A build older than its sources publishes yesterday's code: users get tools that no longer match
// the repository (or miss the newest ones). The sources are the TypeScript files under the
// tsconfig's rootDir (tsconfig.build.json first, else tsconfig.json; default src/), and each one's
// built file is the same path under outDir (default: the entry's folder), as tsc writes it.
import { existsSync, readdirSync } from "node:fs"
import path from "node:path"
import { parse } from "jsonc-parser"
import { statOf } from "../_file-stats.ts"
import { readSourceText } from "../discovery/_source-file.ts"
import type { Finding } from "../doctor/finding.ts"
import type { PackedPackage } from "./pack-package.ts"

/** STALE_BUILD for every packed built file older than its source. Nothing when the entry is itself a source. */
export function staleBuildFindings(packed: PackedPackage, entry: string): Finding[] {
  if (/\.(m|c)?tsx?$/.test(entry) && !entry.endsWith(".d.ts")) return []
  const { rootDir, outDir } = buildFolders(packed.directory, entry)
  const sourceRoot = path.join(packed.directory, rootDir)
  if (!existsSync(sourceRoot) || path.posix.normalize(rootDir) === path.posix.normalize(outDir)) return []
  const packedFiles = new Set(packed.files.map((file) => file.path))
  const stale: Array<{ source: string; built: string }> = []
  for (const source of typeScriptFiles(sourceRoot)) {
    const relative = path.relative(sourceRoot, source).split(path.sep).join("/")
    const built = path.posix.join(
      outDir,
      relative
        .replace(/\.tsx?$/, ".js")
        .replace(/\.mts$/, ".mjs")
        .replace(/\.cts$/, ".cjs"),
    )
    if (!packedFiles.has(built)) continue
    const builtFile = path.join(packed.directory, built)
    if (existsSync(builtFile) && statOf(builtFile).mtimeMs < statOf(source).mtimeMs) {
      stale.push({ source: path.posix.join(rootDir, relative), built })
    }
  }
  if (stale.length === 0) return []
  const first = stale[0]!
  const more = stale.length > 1 ? ` (and ${stale.length - 1} more)` : ""
  return [
    {
      code: "STALE_BUILD",
      severity: "error",
      file: path.join(packed.directory, first.source),
      message: `${first.built} is older than its source ${first.source}${more}: the tarball would ship an old build; build again before publishing (a prepublishOnly script that builds does it)`,
      data: { stale },
    },
  ]
}

// --- internal ---

function buildFolders(directory: string, entry: string): { rootDir: string; outDir: string } {
  const options = compilerOptions(directory)
  const clean = (value: unknown) =>
    typeof value === "string"
      ? path.posix.normalize(value.replace(/\\/g, "/").replace(/^\.\//, "")).replace(/\/$/, "")
      : undefined
  return {
    rootDir: clean(options["rootDir"]) ?? "src",
    outDir: clean(options["outDir"]) ?? path.posix.dirname(entry),
  }
}

/** compilerOptions of tsconfig.build.json, else tsconfig.json (one level of `extends` to a local file followed). */
function compilerOptions(directory: string): Record<string, unknown> {
  for (const name of ["tsconfig.build.json", "tsconfig.json"]) {
    const file = path.join(directory, name)
    if (!existsSync(file)) continue
    const config = readConfig(file)
    const own = (config["compilerOptions"] as Record<string, unknown> | undefined) ?? {}
    const extended =
      typeof config["extends"] === "string" && config["extends"].startsWith(".") ? config["extends"] : undefined
    const base = extended
      ? readConfig(path.resolve(directory, extended.endsWith(".json") ? extended : `${extended}.json`))
      : {}
    return { ...((base["compilerOptions"] as Record<string, unknown> | undefined) ?? {}), ...own }
  }
  return {}
}

function readConfig(file: string): Record<string, unknown> {
  try {
    const value = parse(readSourceText(file)) as unknown
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : typeScriptFiles(full)
    return /\.(m|c)?tsx?$/.test(entry.name) && !/\.d\.(m|c)?ts$/.test(entry.name) ? [full] : []
  })
}
