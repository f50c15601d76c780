// The one way to pass optional fields on: `...definedFields({ runs, agent })` instead of one
// `...(runs === undefined ? {} : { runs })` spread per field. Under exactOptionalPropertyTypes an
// optional field may be missing but not undefined: this leaves the undefined ones out.
// create-tool and tool-tester import nothing of each other: each keeps this file, the same
// (create-tool's test/defined-fields.test.ts).

/** The keys of `T` whose type admits undefined. */
type MaybeUndefinedKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T]

/** `T` with each field that may be undefined made optional instead, and never undefined. */
export type DefinedFields<T> = { [K in Exclude<keyof T, MaybeUndefinedKeys<T>>]: T[K] } & {
  [K in MaybeUndefinedKeys<T>]?: Exclude<T[K], undefined>
}

/** `fields` without the ones whose value is undefined (null, false, 0 and "" are kept). */
export function definedFields<T extends Record<string, unknown>>(fields: T): DefinedFields<T> {
  const defined: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) defined[key] = value
  return defined as DefinedFields<T>
}
