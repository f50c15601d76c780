// The engine's built-ins as they were before any user code ran. Tools share their runtime's
// globals (in opencode too): one that replaces JSON.stringify, sets Object.prototype.toJSON or
// swaps an Array.prototype method must not be able to break the report of its own run. This
// module is imported by every host before it loads a tool file; it keeps the originals, says
// which ones a tool changed, and puts them back. Adding a standard member the runtime lacks (a
// guarded polyfill) is not a change: see _standard-builtins.ts.

import { isStandardMember } from "./_standard-builtins.ts"

// First: under Bun it wraps the timer functions, so the snapshot below holds the wrappers, and a
// tool only ever gets them (runtime/pending-work.ts).
import "./runtime/pending-work.ts"

type Watched = { owner: object; label: string }

const WATCHED: Watched[] = [
  { owner: JSON, label: "JSON" },
  { owner: Object, label: "Object" },
  { owner: Array, label: "Array" },
  { owner: Promise, label: "Promise" },
  { owner: Reflect, label: "Reflect" },
  // What truncation and the report use by name: a replaced Buffer.byteLength would turn truncation
  // off, a replaced Date.now or Math.random would repeat the ids of saved outputs.
  { owner: Buffer, label: "Buffer" },
  { owner: Math, label: "Math" },
  { owner: Date, label: "Date" },
  { owner: Number, label: "Number" },
  { owner: String, label: "String" },
  { owner: Object.prototype, label: "Object.prototype" },
  { owner: Array.prototype, label: "Array.prototype" },
  { owner: String.prototype, label: "String.prototype" },
  { owner: Number.prototype, label: "Number.prototype" },
  { owner: Boolean.prototype, label: "Boolean.prototype" },
  { owner: Symbol.prototype, label: "Symbol.prototype" },
  { owner: Function.prototype, label: "Function.prototype" },
  { owner: Promise.prototype, label: "Promise.prototype" },
  { owner: Error.prototype, label: "Error.prototype" },
  { owner: RegExp.prototype, label: "RegExp.prototype" },
  { owner: Map.prototype, label: "Map.prototype" },
  { owner: Set.prototype, label: "Set.prototype" },
  // What `for...of`, spreading and Promise.all step through: a throwing `next` on the array
  // iterators would break every loop of the report. They have no names of their own: the labels
  // are the specification's.
  { owner: Object.getPrototypeOf([][Symbol.iterator]()) as object, label: "%ArrayIteratorPrototype%" },
  { owner: Object.getPrototypeOf(new Map()[Symbol.iterator]()) as object, label: "%MapIteratorPrototype%" },
  { owner: Object.getPrototypeOf(new Set()[Symbol.iterator]()) as object, label: "%SetIteratorPrototype%" },
  { owner: Object.getPrototypeOf(""[Symbol.iterator]()) as object, label: "%StringIteratorPrototype%" },
  // What they all inherit `[Symbol.iterator]` from: `for...of` and Array.from over `map.entries()`
  // or a generator call it, and take whatever iterator it returns.
  {
    owner: Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object,
    label: "%IteratorPrototype%",
  },
]

/**
 * The globals the pipeline (and the engine's process) uses by name. Only these are watched on
 * globalThis: a tool may add globals of its own, and the runtime adds some as they are first used.
 */
const GLOBALS = [
  "JSON",
  "Object",
  "Array",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "Function",
  "Error",
  "TypeError",
  "RangeError",
  "Promise",
  "Reflect",
  "Proxy",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "setImmediate",
  "clearImmediate",
  "queueMicrotask",
  "structuredClone",
  "process",
  "Buffer",
  "URL",
  "TextEncoder",
  "TextDecoder",
  "AbortController",
  "AbortSignal",
  "EventTarget",
  "performance",
]

const ownKeys = Reflect.ownKeys
const describe = Object.getOwnPropertyDescriptor
const define = Object.defineProperty
const remove = Reflect.deleteProperty
const isNotANumber = Number.isNaN as (value: unknown) => boolean

type Saved = {
  owner: object
  label: string
  keys: PropertyKey[]
  descriptors: PropertyDescriptor[]
  /** Keys added later are tampering too (false for globalThis, where only GLOBALS are watched). */
  closed: boolean
  /** For globalThis: what each key read as. Some are getters over a variable their setter changes (Node's `process`). */
  values?: unknown[]
}

// Arrays and index loops only: a tool may have replaced Map's or Array's iterators by the time
// the snapshot is read.
const snapshot: Saved[] = []
for (let entry = 0; entry < WATCHED.length; entry++) {
  const { owner, label } = WATCHED[entry]!
  const keys = ownKeys(owner)
  const descriptors: PropertyDescriptor[] = []
  for (let index = 0; index < keys.length; index++) descriptors[index] = describe(owner, keys[index]!)!
  snapshot[entry] = { owner, label, keys, descriptors, closed: true }
}
{
  const keys: PropertyKey[] = []
  const descriptors: PropertyDescriptor[] = []
  const values: unknown[] = []
  for (let index = 0; index < GLOBALS.length; index++) {
    const name = GLOBALS[index]!
    // Node defines some globals as getters that turn into plain values when first read: read
    // them now, so that reading them later is no change.
    const value = (globalThis as Record<string, unknown>)[name]
    const descriptor = describe(globalThis, name)
    if (descriptor === undefined) continue
    values[keys.length] = value
    keys[keys.length] = name
    descriptors[descriptors.length] = descriptor
  }
  snapshot[snapshot.length] = { owner: globalThis, label: "globalThis", keys, descriptors, closed: false, values }
}

/** JSON.stringify as it was. */
export const pristineStringify: typeof JSON.stringify = JSON.stringify

/**
 * Puts back every watched built-in a tool replaced, deleted or redefined (a value, a getter, or
 * any change of its attributes), and takes away every key added to a watched object (`toJSON` on
 * Object.prototype, a `then` getter, a non-enumerable method). Returns what was changed, as
 * `JSON.stringify` or `Object.prototype.toJSON`; empty when nothing was. What could not be put
 * back (made non-configurable) is reported too: the caller replaces the engine. A standard member
 * added where the runtime lacked it (a guarded polyfill) stays, and is watched from then on.
 */
export function restoreBuiltins(): string[] {
  return compareBuiltins(true)
}

/** What {@link restoreBuiltins} would put back, without putting it back. */
export function changedBuiltins(): string[] {
  return compareBuiltins(false)
}

/** The watched built-ins that differ from the snapshot, as they are now: see {@link restoreBuiltinsTo}. */
export type ChangedBuiltins = Array<{
  owner: object
  key: PropertyKey
  label: string
  now: PropertyDescriptor | undefined
}>

/** What differs from the snapshot now (a caller's fake timers, in its own process), to be kept. */
export function changedBuiltinsNow(): ChangedBuiltins {
  const found: ChangedBuiltins = []
  compareBuiltins(false, (owner, key, label) => {
    found[found.length] = { owner, key, label, now: describe(owner, key) }
  })
  return found
}

/**
 * {@link restoreBuiltins} to the state `kept` was taken in, not to the snapshot: what changed since
 * is put back and returned, and what `kept` holds stays as it was then.
 */
export function restoreBuiltinsTo(kept: ChangedBuiltins): string[] {
  const changed: string[] = []
  for (let index = 0; index < kept.length; index++) {
    const { owner, key, label, now: then } = kept[index]!
    const now = describe(owner, key)
    if (now === undefined ? then !== undefined : then === undefined || !sameDescriptor(now, then))
      changed[changed.length] = label
  }
  const restored = restoreBuiltins()
  for (let index = 0; index < kept.length; index++) {
    const { owner, key, now: then } = kept[index]!
    try {
      if (then === undefined) remove(owner, key)
      else define(owner, key, then)
    } catch {
      // Made non-configurable since: it stays, and was reported above.
    }
  }
  for (let index = 0; index < restored.length; index++) {
    const label = restored[index]!
    let wasKept = false
    for (let at = 0; at < kept.length; at++) if (kept[at]!.label === label) wasKept = true
    if (!wasKept) changed[changed.length] = label
  }
  return changed
}

function compareBuiltins(
  restore: boolean,
  onChanged?: (owner: object, key: PropertyKey, label: string) => void,
): string[] {
  const changed: string[] = []
  for (let entry = 0; entry < snapshot.length; entry++) {
    const { owner, label, keys, descriptors, closed, values } = snapshot[entry]!
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!
      const now = describe(owner, key)
      const saved = descriptors[index]!
      if (now !== undefined && sameDescriptor(now, saved) && (values === undefined || readsAs(key, values[index])))
        continue
      changed[changed.length] = `${label}.${String(key)}`
      onChanged?.(owner, key, `${label}.${String(key)}`)
      if (!restore) continue
      try {
        define(owner, key, saved)
        // A getter over a variable the tool set through its setter: the value itself goes back.
        if (values !== undefined && !readsAs(key, values[index]))
          define(owner, key, {
            value: values[index],
            writable: true,
            enumerable: saved.enumerable === true,
            configurable: true,
          })
      } catch {
        // Made non-configurable by the tool: it stays as the tool left it, and is reported.
      }
    }
    if (!closed) continue
    const now = ownKeys(owner)
    // Most calls add nothing: the same keys in the same order, found without the search below,
    // which costs a Bun engine about a tenth of a millisecond per check.
    if (sameKeys(now, keys)) continue
    for (let index = 0; index < now.length; index++) {
      const key = now[index]!
      if (includes(keys, key)) continue
      if (isStandardMember(label, key)) {
        keys[keys.length] = key
        descriptors[descriptors.length] = describe(owner, key)!
        continue
      }
      changed[changed.length] = `${label}.${String(key)}`
      onChanged?.(owner, key, `${label}.${String(key)}`)
      if (restore) remove(owner, key)
    }
  }
  return changed
}

function readsAs(key: PropertyKey, value: unknown): boolean {
  try {
    return (globalThis as Record<PropertyKey, unknown>)[key] === value
  } catch {
    return false
  }
}

/** The same keys in the same order (ownKeys lists a key once, so this is set equality too). */
function sameKeys(now: PropertyKey[], keys: PropertyKey[]): boolean {
  if (now.length !== keys.length) return false
  for (let index = 0; index < now.length; index++) if (now[index] !== keys[index]) return false
  return true
}

function includes(keys: PropertyKey[], key: PropertyKey): boolean {
  for (let index = 0; index < keys.length; index++) if (keys[index] === key) return true
  return false
}

function sameDescriptor(left: PropertyDescriptor, right: PropertyDescriptor): boolean {
  return (
    // NaN (Number.NaN) is itself.
    (left.value === right.value || (isNotANumber(left.value) && isNotANumber(right.value))) &&
    left.get === right.get &&
    left.set === right.set &&
    left.writable === right.writable &&
    left.enumerable === right.enumerable &&
    left.configurable === right.configurable
  )
}
