// JSON.stringify writes -0 as 0, though the text -0 is JSON and JSON.parse reads it back as -0: a
// model's arguments can hold it, and opencode hands the tool -0 (docs/opencode-contract.md: "-0
// stays -0"). What carries arguments as JSON text (the engine's channel both ways, the reports the
// CLI prints, fuzz's record of calls made) writes them here, so the tool gets the -0 it was given
// and a failure found with -0 is printed as arguments that replay it.
import { pristineStringify } from "./_pristine.ts"

// Kept before any tool runs, as _json-safe.ts keeps its own: the engine writes its reports here.
const isArray = Array.isArray
const ownKeys = Object.keys
const includes = String.prototype.includes
const split = String.prototype.split
const join = Array.prototype.join
const apply = Reflect.apply
const SetOf = Set
const setHas = Set.prototype.has
const setAdd = Set.prototype.add

/** `JSON.stringify(value)`, with every -0 written as `-0`. Throws what JSON.stringify throws (a cycle, a BigInt). */
export function stringifyKeepingNegativeZero(value: unknown): string | undefined {
  const plain = pristineStringify(value)
  if (plain === undefined || !holdsNegativeZero(value)) return plain
  // A -0 becomes a marker string, then the marker's JSON the text -0. The marker is one the text
  // written without it does not hold, so every marker found is one put there (a string of the
  // tool's cannot pass for one).
  let marker = "\u0000-0"
  for (let index = 0; apply(includes, plain, [pristineStringify(marker)]); index++) marker = `\u0000-0 ${index}`
  const text = pristineStringify(value, (_key, held: unknown) => (isNegativeZero(held) ? marker : held))
  return apply(join, apply(split, text, [pristineStringify(marker)]), ["-0"])
}

// --- internal ---

function isNegativeZero(value: unknown): boolean {
  return value === 0 && 1 / value < 0
}

/**
 * Whether `value` holds a -0 at any depth, walked without recursion, each object once (a cycle
 * ends). Read after JSON.stringify read it all: a getter that throws now counts as holding none.
 */
function holdsNegativeZero(value: unknown): boolean {
  const seen = new SetOf<unknown>()
  // A stack kept by hand: a tool may have replaced Array.prototype.push and pop.
  const stack: unknown[] = [value]
  let size = 1
  try {
    while (size > 0) {
      const current = stack[--size]
      if (isNegativeZero(current)) return true
      if (typeof current !== "object" || current === null || apply(setHas, seen, [current])) continue
      apply(setAdd, seen, [current])
      // What JSON.stringify writes: an array's items, an object's own enumerable keys.
      if (isArray(current)) for (let index = 0; index < current.length; index++) stack[size++] = current[index]
      else {
        const keys = ownKeys(current)
        for (let index = 0; index < keys.length; index++)
          stack[size++] = (current as Record<string, unknown>)[keys[index]!]
      }
    }
  } catch {
    return false
  }
  return false
}
