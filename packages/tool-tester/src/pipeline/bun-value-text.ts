/**
 * How Bun's TypeError texts show a value (`'x.y' is undefined`, `is 5`, `is "text"`,
 * `is an instance of Object`), for the errors opencode's own code throws on what a tool gave it.
 */
export function bunValueText(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "object" && value !== null) {
    let name: unknown
    try {
      name = (value as { constructor?: { name?: unknown } }).constructor?.name
    } catch {
      name = undefined
    }
    return `an instance of ${typeof name === "string" && name !== "" ? name : "Object"}`
  }
  return String(value)
}
