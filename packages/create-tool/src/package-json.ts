import { CreateToolError } from "./errors.ts"
import { printable } from "./printable.ts"

// package.json files are parsed, changed as objects and written back as npm writes them.

export type PackageJson = Record<string, unknown>

export function parsePackageJson(text: string, path: string): PackageJson {
  let value: unknown
  try {
    // A byte order mark, which Windows editors write and npm reads past.
    value = JSON.parse(text.replace(/^\uFEFF/, ""))
  } catch (error) {
    throw new CreateToolError(
      "INVALID_PACKAGE_JSON",
      `${printable(path)} is not valid JSON (${printable((error as Error).message)}): fix it, or move it away, and run again.`,
      { data: { path }, cause: error },
    )
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CreateToolError(
      "INVALID_PACKAGE_JSON",
      `${printable(path)} does not hold a JSON object: fix it and run again.`,
      {
        data: { path },
      },
    )
  }
  return value as PackageJson
}

/**
 * The text of `packageJson`: two-space indent and a final newline, or, given the text of the file it
 * replaces, in that file's way (its indent, line ends, byte order mark and final newline), as npm
 * keeps them, so that the diff shows only what was added.
 */
export function formatPackageJson(packageJson: PackageJson, like?: string): string {
  if (like === undefined) return `${JSON.stringify(packageJson, null, 2)}\n`
  const indent = /^([ \t]+)"/m.exec(like)?.[1] ?? "  "
  const eol = like.includes("\r\n") ? "\r\n" : "\n"
  const bom = like.startsWith("\uFEFF") ? "\uFEFF" : ""
  const end = /\r?\n$/.test(like) ? eol : ""
  return `${bom}${JSON.stringify(packageJson, null, indent).replaceAll("\n", eol)}${end}`
}

/**
 * Adds to `existing` what it lacks from `additions`: absent top-level fields, and absent entries of
 * object fields (scripts, dependencies, ...). Nothing present is changed; `kept` lists the entries
 * that differ from `additions` and were left as they were, such as `scripts.test`.
 */
export function mergePackageJson(
  existing: PackageJson,
  additions: PackageJson,
): { packageJson: PackageJson; kept: string[] } {
  const packageJson: PackageJson = { ...existing }
  const kept: string[] = []
  for (const [key, value] of Object.entries(additions)) {
    const current = packageJson[key]
    if (current === undefined) {
      packageJson[key] = value
    } else if (isRecord(current) && isRecord(value)) {
      const merged: Record<string, unknown> = { ...current }
      for (const [entry, entryValue] of Object.entries(value)) {
        if (merged[entry] === undefined) merged[entry] = entryValue
        else if (JSON.stringify(merged[entry]) !== JSON.stringify(entryValue)) kept.push(`${key}.${entry}`)
      }
      packageJson[key] = merged
    } else if (JSON.stringify(current) !== JSON.stringify(value)) {
      kept.push(key)
    }
  }
  return { packageJson, kept }
}

/** A copy of `packageJson` without the given `field.entry` paths (or whole fields); empty objects are removed. */
export function omitEntries(packageJson: PackageJson, paths: readonly string[]): PackageJson {
  const result: PackageJson = structuredClone(packageJson)
  for (const path of paths) {
    const dot = path.indexOf(".")
    const field = dot === -1 ? path : path.slice(0, dot)
    const entry = dot === -1 ? undefined : path.slice(dot + 1)
    const value = result[field]
    if (entry === undefined) delete result[field]
    else if (isRecord(value)) {
      delete value[entry]
      if (Object.keys(value).length === 0) delete result[field]
    }
  }
  return result
}

// --- internal ---

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}
