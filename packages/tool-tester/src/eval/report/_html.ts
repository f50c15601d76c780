// Text into HTML: everything the page shows of a model, a tool or a case is escaped, after the
// characters a reader could be misled by (controls, bidi overrides) are written out the way the
// terminal report writes them (../../_terminal-safe.ts).

import { terminalSafe } from "../../_terminal-safe.ts"

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** `text` safe as HTML element content and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return terminalSafe(text).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char)
}

/** At most `length` characters of `text`, saying how many were left out. */
export function clip(text: string, length: number): string {
  if (text.length <= length) return text
  return `${text.slice(0, length)}… (${text.length - length} more characters)`
}

/** A value as the page shows arguments: JSON on one line when short, else pretty; a string as it is. */
export function showValue(value: unknown): string {
  if (typeof value === "string") return value
  try {
    const line = JSON.stringify(value)
    if (line === undefined) return String(value)
    return line.length <= 80 ? line : JSON.stringify(value, null, 2)
  } catch {
    return String(value)
  }
}
