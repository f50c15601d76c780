import { existsSync } from "node:fs"
import path from "node:path"
import { pathAliasOf } from "./path-alias.ts"

/**
 * Why a file that failed to import under the node engine would load in Bun, which is what opencode
 * runs it in, else undefined: output that Bun built for Bun (`__require`, `import.meta.require`,
 * which Node lacks), or a relative import without its extension inside a package Node imports as
 * it is (Bun finds `./plugin.js` for `./plugin`; Node does not), or a path alias a tsconfig.json
 * maps (Bun follows `compilerOptions.paths`; Node does not).
 */
export function bunOnlyImport(message: string, file: string | undefined): string | undefined {
  const alias = pathAliasOf(message, file)
  if (alias?.mappedBy !== undefined) {
    return `it imports ${alias.specifier}, a path alias that ${alias.mappedBy} maps (compilerOptions.paths), which Bun follows and Node does not`
  }
  if (/\b(?:__require|import\.meta\.require) is not a function\b/.test(message)) {
    return "it was built by Bun for Bun (its __require is Bun's import.meta.require, which Node lacks)"
  }
  const missing = /Cannot find module '([^']+)' imported from /.exec(message)?.[1]
  if (missing === undefined || !path.isAbsolute(missing) || path.extname(missing) !== "") return undefined
  const found = [".js", ".ts", ".mjs", "/index.js", "/index.ts"].find((suffix) => existsSync(missing + suffix))
  if (found === undefined) return undefined
  return `it imports ${path.basename(missing)} without its extension (${path.basename(missing + found)}), which Bun resolves and Node does not`
}

/** What the user can do about a file only Bun loads. */
export const NEEDS_BUN_ENGINE = "needs the bun engine: install opencode or put it on PATH"
