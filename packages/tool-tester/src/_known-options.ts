// A library function given an options key it does not take: in JavaScript (or through a cast) it
// would be dropped without a word, and `timeout` for `timeoutMs` would run with no bound at all.
import { didYouMean } from "./did-you-mean.ts"
import { ToolTesterError } from "./errors.ts"

/** Throws USAGE, naming the key and the closest known one, for a key of `options` not in `known`. */
export function refuseUnknownOptions(caller: string, options: object, known: Readonly<Record<string, true>>): void {
  const names = Object.keys(known)
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(known, key)) continue
    // A shortened name (`dir` for `directory`) is no typo, but as surely meant.
    const start = key.length >= 3 ? names.find((name) => name.toLowerCase().startsWith(key.toLowerCase())) : undefined
    const hint = start === undefined ? didYouMean(key, names) : `; did you mean "${start}"?`
    throw new ToolTesterError(
      "USAGE",
      `${caller} has no option ${JSON.stringify(key)}${hint}: it takes ${names.join(", ")}`,
      {
        data: { option: key },
      },
    )
  }
}
