// Colour is decoration only: every report reads the same without it. Only the human reports use
// these functions; `--json` output never contains escape codes. The one switch of both CLIs:
// create-tool's copy is written from this file (scripts/shared-sources.mjs).
import { $ } from "kleur/colors"

export { bold, cyan, dim, green, red, yellow } from "kleur/colors"

/**
 * Whether to colour the human report: only on a terminal, never with `--json`, and off with
 * NO_COLOR, NODE_DISABLE_COLORS or TERM=dumb; FORCE_COLOR (not "0") turns it on anywhere.
 */
export function shouldColor(options: {
  isTTY: boolean
  json: boolean
  env: Record<string, string | undefined>
}): boolean {
  const { env } = options
  if (options.json) return false
  if (env["NO_COLOR"] !== undefined || env["NODE_DISABLE_COLORS"] !== undefined || env["TERM"] === "dumb") return false
  if (env["FORCE_COLOR"] !== undefined && env["FORCE_COLOR"] !== "0") return true
  return options.isTTY
}

/** Switches every colour function on or off for the rest of the process. */
export function setColor(enabled: boolean): void {
  $.enabled = enabled
}

/** Whether colour is on (for modules that take a `color` option). */
export function colorEnabled(): boolean {
  return $.enabled
}
