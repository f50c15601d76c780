// What opencode 1.18.34 does with a result's `metadata` and `attachments` before the model reads
// anything: it copies them with structuredClone, then writes the copy out with JSON.stringify. A
// value either one refuses ends opencode's whole run (`opencode run` exits 1, the session's error
// is logged) and the model gets no answer. Observed on the binary with `tool-tester e2e`: a function
// anywhere in them (a `toJSON` method too), a Symbol, a WeakMap or a Promise gave "The object can
// not be cloned."; a BigInt "JSON.stringify cannot serialize BigInt."; an object that contains
// itself "JSON.stringify cannot serialize cyclic structures."; a Proxy anywhere below the top (Bun
// clones no Proxy) "The object can not be cloned."; a getter below the top that throws, its own
// error. A class instance, an Error, a Map or a Date went through (as JSON makes them), and so did
// symbol keys and inherited functions, which neither one reads. (The top level is read before, by
// a spread: a getter there that throws fails the call only, as normalize-result.ts reports it.)
import { pristineStringify } from "../_pristine.ts"

/**
 * Where in the value the cause is, and the run-ending error opencode's Bun gives: its text, or
 * what was thrown (a getter's error) for the caller to read.
 */
export type CopyFailure = { path: string; what: string } & ({ opencodeError: string } | { thrown: unknown })

const clone: typeof structuredClone = structuredClone
const isArray = Array.isArray
const ownKeys = Object.keys

/**
 * Why opencode could not copy `value` (named `label` in the path), or undefined when it can.
 * `original`: the user's object `value` was spread from, where a cycle is named: in the spread copy
 * the top is a new object, so `metadata.self = metadata` would read as `metadata.self.self`.
 */
export function copyFailure(value: unknown, label: string, original: unknown = value): CopyFailure | undefined {
  let copy: unknown
  try {
    copy = clone(value)
  } catch (error) {
    // Too deep for this engine's stack, which is not opencode's (Bun copied 5,000 levels there):
    // nothing to say.
    if (isStackOverflow(error)) return undefined
    const found = findValue(value, label, uncloneable)
    if (found !== undefined || isCloneError(error)) {
      return {
        opencodeError: "The object can not be cloned.",
        path: found?.path ?? label,
        what: found?.what ?? "a value",
      }
    }
    // A getter (or a Proxy's trap) threw while the value was copied: the run ends with its error.
    return { thrown: error, path: findThrowing(value, label) ?? label, what: "a getter that throws when read" }
  }
  return jsonFailure(copy, label, original)
}

/**
 * Why Bun's JSON.stringify refuses `value`, in Bun's words (Node's differ), or undefined when it
 * does not: opencode writes out copies, and prints a thrown object as its JSON.
 */
export function jsonFailure(value: unknown, label: string, original: unknown = value): CopyFailure | undefined {
  try {
    pristineStringify(value)
    return undefined
  } catch (error) {
    if (isStackOverflow(error)) return undefined
    const bigint = findValue(value, label, (item) => (typeof item === "bigint" ? "a BigInt" : undefined))
    if (bigint) return { opencodeError: "JSON.stringify cannot serialize BigInt.", ...bigint }
    const cycle = findCycle(original, label) ?? findCycle(value, label)
    return {
      opencodeError: "JSON.stringify cannot serialize cyclic structures.",
      path: cycle ?? label,
      what: "a reference back to an object that holds it",
    }
  }
}

// --- internal ---

/** The runtime's RangeError for a stack too deep (its text differs between Node and Bun). */
function isStackOverflow(error: unknown): boolean {
  try {
    return error instanceof RangeError
  } catch {
    return false
  }
}

/** The runtime's own refusal (Bun's and Node's structuredClone both throw a DataCloneError). */
function isCloneError(error: unknown): boolean {
  try {
    return error instanceof DOMException && error.name === "DataCloneError"
  } catch {
    return false
  }
}

/**
 * Whether `item` is a Proxy, from node:util/types, loaded only on this path (a call that failed):
 * importing node:util costs a Bun engine's start tens of milliseconds.
 */
function isProxy(item: object): boolean {
  const loaded = process.getBuiltinModule?.("node:util/types") as { isProxy?: (value: unknown) => boolean } | undefined
  return loaded?.isProxy?.(item) === true
}

/** What structuredClone refuses, named. */
function uncloneable(item: unknown): string | undefined {
  if (typeof item === "function") return "a function"
  if (typeof item === "symbol") return "a Symbol"
  if (typeof item !== "object" || item === null) return undefined
  if (isProxy(item)) return "a Proxy"
  if (item instanceof Promise) return "a Promise"
  if (item instanceof WeakMap) return "a WeakMap"
  if (item instanceof WeakSet) return "a WeakSet"
  if (typeof WeakRef === "function" && item instanceof WeakRef) return "a WeakRef"
  return undefined
}

/** The first value `test` names, breadth first, with its path: bounded, and never throws. */
function findValue(
  root: unknown,
  label: string,
  test: (item: unknown) => string | undefined,
): { path: string; what: string } | undefined {
  const queue: Array<{ item: unknown; path: string }> = [{ item: root, path: label }]
  const seen = new Set<unknown>()
  try {
    for (let index = 0; index < queue.length && index < 10_000; index++) {
      const { item, path } = queue[index]!
      const what = test(item)
      if (what !== undefined) return { path, what }
      if (typeof item !== "object" || item === null || seen.has(item)) continue
      seen.add(item)
      for (const [key, child] of entries(item)) queue.push({ item: child, path: `${path}${key}` })
    }
  } catch {
    // A getter or a Proxy trap that throws: no path to give.
  }
  return undefined
}

/** The path of the first value whose reading throws (a getter, a Proxy's trap), depth first. */
function findThrowing(root: unknown, label: string): string | undefined {
  const walk = (item: unknown, path: string, above: Set<unknown>, depth: number): string | undefined => {
    if (typeof item !== "object" || item === null || depth > 100 || above.has(item)) return undefined
    above.add(item)
    let keys: string[]
    try {
      keys = isArray(item) ? item.map((_child, index) => String(index)) : ownKeys(item)
    } catch {
      return path
    }
    for (const key of keys) {
      const at = isArray(item) ? `${path}[${key}]` : `${path}.${key}`
      let child: unknown
      try {
        child = (item as Record<string, unknown>)[key]
      } catch {
        return at
      }
      const found = walk(child, at, above, depth + 1)
      if (found !== undefined) return found
    }
    return undefined
  }
  return walk(root, label, new Set(), 0)
}

/** The path of the first object met again below itself. */
function findCycle(root: unknown, label: string): string | undefined {
  const walk = (item: unknown, path: string, above: Set<unknown>, depth: number): string | undefined => {
    if (typeof item !== "object" || item === null || depth > 100) return undefined
    if (above.has(item)) return path
    above.add(item)
    for (const [key, child] of entries(item)) {
      const found = walk(child, `${path}${key}`, above, depth + 1)
      if (found !== undefined) return found
    }
    above.delete(item)
    return undefined
  }
  try {
    return walk(root, label, new Set(), 0)
  } catch {
    return undefined
  }
}

/** What structuredClone and JSON read of an object: its items, a Map's values, own enumerable keys. */
function entries(item: object): Array<[string, unknown]> {
  if (isArray(item)) return item.map((child, index) => [`[${index}]`, child])
  if (item instanceof Map) return [...item.entries()].map(([key, child]) => [`.get(${String(key)})`, child])
  if (item instanceof Set) return [...item].map((child, index) => [`[set ${index}]`, child])
  return ownKeys(item).map((key) => [`.${key}`, (item as Record<string, unknown>)[key]])
}
