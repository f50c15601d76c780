// How a library function's USAGE message shows a value it was given and cannot use.

/** A value as a USAGE message shows it: strings quoted, objects by kind. */
export function described(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value)
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  if (typeof value === "function") return "a function"
  if (typeof value === "object") return "an object"
  return String(value)
}
