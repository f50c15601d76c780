import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { readSourceText } from "./_source-file.ts"

/**
 * An import that is a path alias (`@/core/x.js`, `~/lib`, or a key of a tsconfig.json's
 * `compilerOptions.paths`), not a package: `mappedBy` is the tsconfig.json, in the importing file's
 * folder or above, whose `paths` maps it. Bun follows those mappings, so opencode loads such a file;
 * Node does not.
 */
export type PathAlias = { specifier: string; mappedBy?: string }

/** The path alias an import error names, else undefined (a package that is only missing). */
export function pathAliasOf(message: string, file: string | undefined): PathAlias | undefined {
  // Bun: "Cannot find module '@/core/x.js' from '/file'"; Node: "Cannot find package '@/core' imported from /file".
  const specifier = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1]
  if (specifier === undefined || specifier.startsWith(".") || path.isAbsolute(specifier)) return undefined
  if (specifier.startsWith("file:") || specifier.startsWith("node:")) return undefined
  const mappedBy = file === undefined ? undefined : tsconfigMapping(specifier, path.dirname(file))
  if (mappedBy !== undefined) return { specifier, mappedBy }
  return notAPackageName(specifier) ? { specifier } : undefined
}

// --- internal ---

/** A first segment npm never publishes: an empty scope (`@/`), or characters a package name cannot hold (`~`). */
function notAPackageName(specifier: string): boolean {
  const [first = "", second = ""] = specifier.split("/")
  if (first.startsWith("@")) return first === "@" || second === ""
  return !/^[a-z0-9][a-z0-9._-]*$/i.test(first)
}

/** The nearest tsconfig.json from `folder` up whose `compilerOptions.paths` has a key matching `specifier`. */
function tsconfigMapping(specifier: string, folder: string): string | undefined {
  for (let current = folder; ; current = path.dirname(current)) {
    const file = path.join(current, "tsconfig.json")
    if (existsSync(file)) {
      const keys = pathKeys(file)
      if (keys.some((key) => matches(key, specifier))) return file
    }
    if (path.dirname(current) === current) return undefined
  }
}

function pathKeys(file: string): string[] {
  try {
    const parse = (createRequire(import.meta.url)("jsonc-parser") as typeof import("jsonc-parser")).parse
    const config = parse(readSourceText(file), [], { allowTrailingComma: true }) as {
      compilerOptions?: { paths?: unknown }
    } | null
    const paths = config?.compilerOptions?.paths
    return typeof paths === "object" && paths !== null ? Object.keys(paths) : []
  } catch {
    return []
  }
}

/** `@/*` matches `@/core/x.js` (and Node's shortened `@/core`); a key without `*` only itself. */
function matches(key: string, specifier: string): boolean {
  const star = key.indexOf("*")
  if (star === -1) return key === specifier
  const prefix = key.slice(0, star)
  // Node names only the package part: `~` for `~/lib/y`.
  if (prefix.startsWith(`${specifier}/`)) return true
  return specifier.startsWith(prefix) && specifier.endsWith(key.slice(star + 1))
}
