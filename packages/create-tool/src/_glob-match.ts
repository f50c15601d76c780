// Whether a folder is one a package manager's workspace globs ("packages/*", "apps/**") name, with
// picomatch (the matcher under micromatch, which the package managers' own globbing follows): `*`
// and `?` within one segment, `**` across segments, `{a,b}`, `[abc]`, dot-folders only when named,
// and a leading `!` that excludes what another pattern took in. Loaded on the first match only (a
// plugin package inside a workspace), so the bundled CLI does not parse it on every scaffold.
import { createRequire } from "node:module"
import type Picomatch from "picomatch"

let picomatch: typeof Picomatch | undefined

/**
 * Whether `path` (relative, with forward slashes) matches one of `patterns` and none of the `!`
 * ones. A leading `./` and a trailing `/` of a pattern are dropped, as the workspace lists allow them.
 */
export function matchesGlobs(path: string, patterns: readonly string[]): boolean {
  const included = patterns.filter((pattern) => !pattern.startsWith("!")).map(bare)
  const excluded = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => bare(pattern.slice(1)))
  picomatch ??= createRequire(import.meta.url)("picomatch") as typeof Picomatch
  const target = bare(path)
  if (included.length === 0 || !picomatch(included)(target)) return false
  return excluded.length === 0 || !picomatch(excluded)(target)
}

// --- internal ---

function bare(pattern: string): string {
  return pattern.replace(/^(\.\/)+/, "").replace(/\/+$/, "")
}
