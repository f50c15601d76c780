// fast-check, imported when first asked for. It is an optional peer dependency (what only fuzz and
// preflight use: src/cli/extras.ts), so the bundles holding this code (the CLI's fuzz worker,
// preflight's chunk) must load without it, for the command to say how to install it.
import type FastCheck from "fast-check"

/** fast-check's API, once loadFastCheck() has settled. */
export let fc: typeof FastCheck

export async function loadFastCheck(): Promise<typeof FastCheck> {
  fc ??= (await import("fast-check")).default
  return fc
}
