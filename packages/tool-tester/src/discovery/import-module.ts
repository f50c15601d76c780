import { createRequire } from "node:module"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { inBun } from "../runtime/here.ts"
import type { Result } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"
import { sourceFileProblem } from "./_source-file.ts"
import { bunImportChain } from "./bun-import-chain.ts"
import { pathAliasOf } from "./path-alias.ts"
import { preparedFiles, preparerFor } from "./prepare-module.ts"
import { nativeImport } from "../runtime/runtime-files.ts"

export type ModuleImporter = {
  (file: string): Promise<Result<Record<string, unknown>>>
  /**
   * The module files this importer's imports read so far, transitively, by absolute path: what a
   * save should reload for (the files that failed to compile included), none under node_modules.
   * Those modules' later imports count too (an `import()` a tool makes inside `execute`).
   */
  modules?: () => string[]
}

/**
 * Told the file about to be imported, and the plugin function about to be called (its export), so
 * that a host whose load never ends (a top-level await that never settles, a loop at import time, a
 * plugin whose init never returns) can name the file and the step it was on.
 */
export const importEvents: {
  onImport: ((file: string) => void) | undefined
  onInit: ((file: string, exportName: string) => void) | undefined
  /**
   * Told, once a project has loaded, the module files its load imported (ToolProject.modules), and
   * how to read them again later: that list grows when a call imports more (an `import()` inside
   * `execute`), so a watcher can follow it.
   */
  onModules?: ((files: string[], now: () => string[]) => void) | undefined
} = { onImport: undefined, onInit: undefined }

let generation = 0
/** The files the latest importer's imports read (its `named`): an engine's process loads one project. */
let latestNamed: Set<string> | undefined

/**
 * An importer for one discovery pass: TypeScript and JavaScript tool files load as opencode loads
 * them (no build step, always ES modules). In Bun they are imported natively, as opencode imports
 * them (Bun keeps one instance per file for the life of the process: the bun engine loads each
 * project in a process of its own). In Node each pass gets fresh module instances, so a second
 * pass sees edited files.
 */
export function createImporter(): ModuleImporter {
  const pass = ++generation
  const prepare = inBun ? async (file: string) => pathToFileURL(file).href : preparerFor(pass)
  // In Bun every module the process imported is in require.cache, ES modules included (Bun 1.3):
  // those of this pass are the ones that were not there before it. A file that failed to build or
  // to resolve an import is not there: its error names it.
  const before = inBun ? new Set(Object.keys(moduleCache())) : undefined
  const named = new Set<string>()
  latestNamed = named
  const importModule: ModuleImporter = async (file) => {
    named.add(path.resolve(file))
    importEvents.onImport?.(file)
    const problem = sourceFileProblem(file)
    if (problem !== undefined) {
      return {
        success: false,
        error: new ToolTesterError("IMPORT_FAILED", `${file}: ${problem}: point it at a module file`, {
          data: { file },
        }),
      }
    }
    try {
      let url = await prepare(file)
      // A file imported as it is (JavaScript in node_modules) is still a fresh instance per pass.
      if (!inBun && url === pathToFileURL(file).href) url += `?tt-generation=${pass}`
      return { success: true, value: (await nativeImport(url)) as Record<string, unknown> }
    } catch (error) {
      for (const failed of failedFiles(error)) named.add(failed)
      // Under Bun, the modules between this file and the one that failed are in no cache.
      if (inBun) for (const reached of bunImportChain(file)) named.add(reached)
      return {
        success: false,
        error: new ToolTesterError("IMPORT_FAILED", `${file}: failed to import: ${describeImportError(error)}`, {
          data: importFailureData(file, error),
          cause: error,
        }),
      }
    }
  }
  importModule.modules = () => {
    const files = new Set(named)
    const read = before ? Object.keys(moduleCache()).filter((file) => !before.has(file)) : preparedFiles(pass)
    for (const file of read) files.add(file)
    // A package's files change when it is installed, not saved: never watched, so not said.
    return [...files].filter((file) => path.isAbsolute(file) && !file.split(path.sep).includes("node_modules"))
  }
  return importModule
}

/**
 * A call's tool threw `error`: when it is a failed import (an `import()` inside `execute` of a
 * module that does not compile, or imports one that does not resolve), the files it names join
 * the latest importer's modules, so that the save that fixes one reloads. Under Bun only: such a
 * module is in no module cache, and nothing else names it (Node's preparer has it already).
 */
export function noteFailedImport(error: unknown): void {
  if (!inBun || latestNamed === undefined) return
  for (const file of failedFiles(error)) latestNamed.add(file)
}

/**
 * One line saying why an import failed, without the stack. A file may throw anything while it
 * loads, including a value that cannot be made text (a null prototype, a throwing toString or
 * Proxy trap): that is said instead, and the file still fails alone.
 */
export function describeImportError(error: unknown): string {
  try {
    return importErrorText(error)
  } catch (readError) {
    return `it threw a value that cannot be read (reading it threw ${readableOrNot(readError)})`
  }
}

// --- internal ---

function moduleCache(): Record<string, unknown> {
  return createRequire(import.meta.url).cache
}

/** The files a failed import names: Bun's build error says which file, its resolve error which importer. */
function failedFiles(error: unknown): string[] {
  try {
    const first = (error as { errors?: unknown[] } | null)?.errors?.[0] ?? error
    const named = [
      (first as { position?: { file?: unknown } } | null)?.position?.file,
      (first as { referrer?: unknown } | null)?.referrer,
    ]
    return named.filter((file): file is string => typeof file === "string" && path.isAbsolute(file))
  } catch {
    // A thrown value that cannot be read names no file.
    return []
  }
}

function importErrorText(error: unknown): string {
  // Bun reports a file with syntax errors as an AggregateError of BuildMessages ("3 errors
  // building ..."), each keeping where it is apart from its message: the first one says enough.
  const first = (error as { errors?: unknown[] } | null)?.errors?.[0] ?? error
  const position = (first as { position?: { file?: string; line?: number; column?: number } } | null)?.position
  if (position?.file && typeof (first as { message?: unknown }).message === "string") {
    return `syntax error at ${position.file}:${position.line}:${position.column}: ${(first as { message: string }).message}`
  }
  if (typeof error === "object" && error !== null && "message" in error) {
    const message = String((error as { message: unknown }).message)
    // esbuild reports syntax errors as "Transform failed with N error(s):\n<file>:<line>:<col>: ERROR: <text>".
    return message
      .replace(/^Transform failed with \d+ errors?:\n/, "syntax error at ")
      .split("\n")
      .filter(Boolean)
      .join(" ")
  }
  const text = String(error)
  // A plain object, on one line, as the model would read it from execute (as JSON).
  return text === "[object Object]" ? (JSON.stringify(error) ?? text) : text
}

/** A second thrown value's text, or that it cannot be read either. */
function readableOrNot(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  } catch {
    return "a value that cannot be read either"
  }
}

/** The package to install, or the path alias that is no package (docs/fidelity.md#node-engine-messages). */
function importFailureData(file: string, error: unknown): Record<string, unknown> {
  let message = ""
  try {
    if (typeof error === "object" && error !== null) message = String((error as { message?: unknown }).message)
  } catch {
    // A message that cannot be read names no package: describeImportError says what happened.
  }
  const alias = pathAliasOf(message, file)
  if (alias !== undefined) return { file, pathAlias: alias }
  return { file, missingPackage: missingPackage(message) }
}

function missingPackage(message: string): string | undefined {
  const match = /Cannot find (?:package|module) '([^']+)'/.exec(message)
  const specifier = match?.[1]
  if (!specifier || specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("file:"))
    return undefined
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]
}
