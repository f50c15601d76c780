// The one test for "a JSON object": every module that reads parsed JSON, a schema or a config uses it.

/** A JSON object: not null, not an array (a class instance passes too: use it on parsed JSON). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}
