// How a config value reads in the messages about it.

/** A config value as it reads in the file: strings quoted, so "2" is told apart from 2. */
export function describeValue(value: unknown): string {
  if (typeof value === "number") return String(value)
  const json = JSON.stringify(value)
  return json === undefined ? String(value) : json
}

/** A setting opencode refuses, with what to do about it. */
export type SettingProblem = { key: string; value: unknown; message: string; fix: string }
