// Small helpers shared by the schema modules.

/** A copy of `record` with every value mapped, keys kept in order. */
export function mapValues(record: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) result[key] = map(value)
  return result
}
