// Module resolution as opencode's runtime (Bun) does it for tool and plugin files, computed here
// rather than by Node's loader, so files can be prepared without module hooks: Node's ESM
// algorithm with Node's own conditions, then Bun's leniency for relative paths (`./x` finds
// `./x.ts`, `./x.js` finds `./x.ts`, a folder finds its index).
import { moduleResolve } from "import-meta-resolve"

/** The conditions Node matches for `import` (module-sync where Node can require ES modules). */
const CONDITIONS = new Set(["node", "import", ...(process.features.require_module ? ["module-sync"] : [])])
const CANDIDATES = [".ts", ".tsx", ".js", "/index.ts", "/index.js"]

/**
 * The URL `specifier` names when imported from `parentURL`: `file:` for files, `node:` for
 * built-ins, or the specifier's own URL. Throws Node's own errors (ERR_MODULE_NOT_FOUND with
 * "Cannot find package 'x' imported from /parent") when nothing matches.
 */
export function resolveSpecifier(specifier: string, parentURL: string): string {
  const parent = new URL(parentURL)
  try {
    return moduleResolve(specifier, parent, CONDITIONS, false).href
  } catch (error) {
    if (!isPathLike(specifier)) throw error
    const stem = specifier.replace(/\.js$/, "")
    for (const suffix of CANDIDATES) {
      try {
        return moduleResolve(stem + suffix, parent, CONDITIONS, false).href
      } catch {}
    }
    throw error
  }
}

/** A relative or absolute path (or file URL), as opposed to a package name or a built-in. */
export function isPathLike(specifier: string): boolean {
  return specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("file:")
}
