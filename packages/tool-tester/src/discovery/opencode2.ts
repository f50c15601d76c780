// opencode 2 named, not guessed (docs/fidelity.md#opencode-versions): its plugins import
// `@opencode/plugin`, export `Plugin.define({ id, setup })` and are listed under `plugins`.
// tool-tester models opencode 1.x and cannot load them; it says so once per cause.

/** What the user can do, after saying what was found. */
export const OPENCODE2_ADVICE =
  "tool-tester models opencode 1.x (1.18.34), which does not load it: test it with opencode 2 itself, or write it for opencode 1.x (import from @opencode-ai/plugin, export a plugin function)"

/** An import failure caused by `@opencode/plugin`, opencode 2's plugin package. */
export function importsOpencode2(message: string): boolean {
  return /Cannot find (?:module|package) '@opencode\/plugin(?:\/[^']*)?'/.test(message)
}

/** A module's default export made by opencode 2's `Plugin.define({ id, setup })`: a `setup`, no `server`. */
export function isOpencode2Definition(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false
  const record = value as Record<string, unknown>
  return typeof record["setup"] === "function" && typeof record["server"] !== "function"
}
