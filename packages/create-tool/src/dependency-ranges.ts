import { createRequire } from "node:module"

// A package.json of the user's keeps its own versions of the dependencies create-tool adds (plan.ts):
// usually fine (opencode's own install picks its version of @opencode-ai/plugin), but a range that
// allows no version the generated files need (vitest ^1.6 where tool-tester needs vitest 4.1 or
// later) fails the first install step, with npm's ERESOLVE far from the cause.

/** Each kept dependency whose range allows no version the template's allows: [entry, theirs, ours]. */
export function incompatibleRanges(
  kept: readonly string[],
  existing: Record<string, unknown>,
  template: Record<string, unknown>,
): Array<{ entry: string; theirs: string; ours: string }> {
  const found: Array<{ entry: string; theirs: string; ours: string }> = []
  for (const entry of kept) {
    const [field, name] = splitEntry(entry)
    if (field === undefined || name === undefined) continue
    const theirs = rangeAt(existing, field, name)
    const ours = rangeAt(template, field, name)
    // Not a semver range (a tag, a path, git, workspace:): nothing to compare.
    if (theirs === undefined || ours === undefined || !validRange(theirs) || !validRange(ours)) continue
    if (!intersects(theirs, ours)) found.push({ entry, theirs, ours })
  }
  return found
}

// --- internal ---

// Two of semver's functions, required when a kept dependency is compared, not bundled: semver as a
// whole would double the size of the CLI that every run loads.
const require = createRequire(import.meta.url)
const intersects = (left: string, right: string): boolean =>
  (require("semver/ranges/intersects") as (left: string, right: string) => boolean)(left, right)
const validRange = (range: string): string | null =>
  (require("semver/ranges/valid") as (range: string) => string | null)(range)

function splitEntry(entry: string): [string | undefined, string | undefined] {
  const match = /^((?:dev)?[dD]ependencies)\.(.+)$/.exec(entry)
  return [match?.[1], match?.[2]]
}

function rangeAt(packageJson: Record<string, unknown>, field: string, name: string): string | undefined {
  const dependencies = packageJson[field]
  if (typeof dependencies !== "object" || dependencies === null) return undefined
  const range = (dependencies as Record<string, unknown>)[name]
  return typeof range === "string" ? range : undefined
}
