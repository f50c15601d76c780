import { createRequire, register } from "node:module"
import os from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import type { Result } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"

export type ModuleImporter = (file: string) => Promise<Result<Record<string, unknown>>>

let generation = 0

/**
 * An importer for one discovery pass: TypeScript and JavaScript tool files load as opencode loads
 * them (no build step, always ES modules), and each pass gets fresh module instances, so a second
 * pass sees edited files.
 */
export function createImporter(): ModuleImporter {
  registerHooks()
  const pass = ++generation
  return async (file) => {
    try {
      const url = `${pathToFileURL(file).href}?tt-generation=${process.pid}-${pass}`
      return { success: true, value: (await nativeImport(url)) as Record<string, unknown> }
    } catch (error) {
      return {
        success: false,
        error: new ToolTesterError("IMPORT_FAILED", `${file}: failed to import: ${describeImportError(error)}`, {
          data: { file, missingPackage: missingPackage(error) },
          cause: error,
        }),
      }
    }
  }
}

/** One line saying why an import failed, without the stack. */
export function describeImportError(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    const message = String((error as { message: unknown }).message)
    // esbuild reports syntax errors as "Transform failed with N error(s):\n<file>:<line>:<col>: ERROR: <text>".
    return message
      .replace(/^Transform failed with \d+ errors?:\n/, "syntax error at ")
      .split("\n")
      .filter(Boolean)
      .join(" ")
  }
  return String(error)
}

// --- internal ---

let registered = false

function registerHooks(): void {
  if (registered) return
  registered = true
  // From source (tests), the hooks come from the build: Node's loader thread cannot read TypeScript.
  const hooks = import.meta.url.endsWith(".ts")
    ? new URL("../../dist/discovery/_loader-hooks.js", import.meta.url)
    : new URL("./_loader-hooks.js", import.meta.url)
  register(hooks, { data: { cacheDirectory: path.join(os.tmpdir(), "opencode-tool-tester", "compiled") } })
}

/**
 * A real `import()`, out of reach of test runners that rewrite dynamic imports (vitest would load
 * the tool through Vite instead of Node, unlike opencode). From source it comes from the build.
 */
const { nativeImport } = createRequire(import.meta.url)(
  import.meta.url.endsWith(".ts") ? "../../dist/discovery/_native-import.cjs" : "./_native-import.cjs",
) as { nativeImport: (url: string) => Promise<unknown> }

function missingPackage(error: unknown): string | undefined {
  const message = typeof error === "object" && error !== null ? String((error as { message?: unknown }).message) : ""
  const match = /Cannot find (?:package|module) '([^']+)'/.exec(message)
  const specifier = match?.[1]
  if (!specifier || specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("file:"))
    return undefined
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]
}
