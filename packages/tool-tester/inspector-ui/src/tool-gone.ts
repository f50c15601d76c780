// The tool a page had open is no longer offered after a save (its export or its file renamed, or
// removed): the page says so and opens the tool likeliest to be the same one, rather than nothing.
import type { ToolView } from "./types.ts"

/** The tool that went, and the one opened in its place (none when no custom tool is left). */
export type GoneTool = { id: string; now?: { id: string; why: string } }

/**
 * What to open in place of `gone`, which the load after `before` no longer offers: a tool of the
 * same file (an export renamed), else one that load added (a file renamed), else the first.
 */
export function replacementOf(gone: ToolView, before: ToolView[], now: ToolView[]): GoneTool {
  const sameFile = gone.file === undefined ? undefined : now.find((tool) => tool.file === gone.file)
  if (sameFile) return { id: gone.id, now: { id: sameFile.id, why: "a tool of the same file" } }
  const added = now.find((tool) => !before.some((old) => old.id === tool.id))
  if (added) return { id: gone.id, now: { id: added.id, why: "the tool this load added" } }
  const first = now[0]
  return first ? { id: gone.id, now: { id: first.id, why: "the first tool" } } : { id: gone.id }
}

/** What the page says of it. */
export function goneMessage(gone: GoneTool): string {
  const went = `${gone.id} is no longer offered: it was renamed or removed since the last load.`
  return gone.now ? `${went} Showing ${gone.now.id}, ${gone.now.why}.` : `${went} No custom or plugin tool is left.`
}
