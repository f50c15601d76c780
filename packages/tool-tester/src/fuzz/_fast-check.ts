// fast-check, imported when first asked for. It is an optional peer dependency (what only fuzz and
// preflight use: src/extras.ts), so the bundles holding this code (the CLI's fuzz worker,
// preflight's chunk) must load without it, for the command to say how to install it. From code
// (`@opencode-ai/tool-tester/fuzz`), a missing fast-check is the CLI's EXTRA_NOT_INSTALLED too,
// with the command that installs it, not Node's module error.
import type FastCheck from "fast-check"

/** fast-check's API, once loadFastCheck() has settled. */
export let fc: typeof FastCheck

export async function loadFastCheck(
  options: {
    /** For tests: a file of the tool-tester install to check, and the import that fails. */
    from?: string
    importFastCheck?: () => Promise<{ default: typeof FastCheck }>
  } = {},
): Promise<typeof FastCheck> {
  // An import given by the caller is tried, whatever an earlier call loaded.
  if (fc !== undefined && options.importFastCheck === undefined) return fc
  try {
    fc = (await (options.importFastCheck ?? (() => import("fast-check")))()).default
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error
    const { requireExtras } = await import("../extras.ts")
    requireExtras("fuzz", {
      cwd: process.cwd(),
      env: process.env,
      ...(options.from === undefined ? {} : { from: options.from }),
    })
    throw error
  }
  return fc
}
