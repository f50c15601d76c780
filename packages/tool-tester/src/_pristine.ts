// The engine's built-ins as they were before any user code ran. Tools share their runtime's
// globals (in opencode too): one that replaces JSON.stringify, sets Object.prototype.toJSON or
// swaps an Array.prototype method must not be able to break the report of its own run. This
// module is imported by every host before it loads a tool file; it keeps the originals, says
// which ones a tool changed, and puts them back.

type Watched = { owner: object; label: string }

const WATCHED: Watched[] = [
  { owner: JSON, label: "JSON" },
  { owner: Object, label: "Object" },
  { owner: Array, label: "Array" },
  { owner: Object.prototype, label: "Object.prototype" },
  { owner: Array.prototype, label: "Array.prototype" },
  { owner: String.prototype, label: "String.prototype" },
  { owner: Function.prototype, label: "Function.prototype" },
  { owner: Promise.prototype, label: "Promise.prototype" },
  { owner: Map.prototype, label: "Map.prototype" },
  { owner: Set.prototype, label: "Set.prototype" },
]

const ownKeys = Reflect.ownKeys
const describe = Object.getOwnPropertyDescriptor
const define = Object.defineProperty
const remove = Reflect.deleteProperty

type Saved = { owner: object; label: string; keys: PropertyKey[]; descriptors: PropertyDescriptor[] }

// Arrays and index loops only: a tool may have replaced Map's or Array's iterators by the time
// the snapshot is read.
const snapshot: Saved[] = []
for (let entry = 0; entry < WATCHED.length; entry++) {
  const { owner, label } = WATCHED[entry]!
  const keys = ownKeys(owner)
  const descriptors: PropertyDescriptor[] = []
  for (let index = 0; index < keys.length; index++) descriptors[index] = describe(owner, keys[index]!)!
  snapshot[entry] = { owner, label, keys, descriptors }
}

/** JSON.stringify as it was. */
export const pristineStringify: typeof JSON.stringify = JSON.stringify

/**
 * Puts back every watched built-in a tool replaced, and takes away `toJSON` and other keys added
 * to Object.prototype or Array.prototype (they change how every object is written). Returns what
 * was changed, as `JSON.stringify` or `Object.prototype.toJSON`; empty when nothing was.
 */
export function restoreBuiltins(): string[] {
  const changed: string[] = []
  for (let entry = 0; entry < snapshot.length; entry++) {
    const { owner, label, keys, descriptors } = snapshot[entry]!
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!
      const now = describe(owner, key)
      if (now !== undefined && sameDescriptor(now, descriptors[index]!)) continue
      changed[changed.length] = `${label}.${String(key)}`
      try {
        define(owner, key, descriptors[index]!)
      } catch {
        // Made non-configurable by the tool: it stays as the tool left it, and is reported.
      }
    }
    // What every object or array would inherit: toJSON, or any key for-in loops would see.
    if (owner !== Object.prototype && owner !== Array.prototype) continue
    const now = ownKeys(owner)
    for (let index = 0; index < now.length; index++) {
      const key = now[index]!
      if (includes(keys, key)) continue
      if (key !== "toJSON" && describe(owner, key)?.enumerable !== true) continue
      changed[changed.length] = `${label}.${String(key)}`
      remove(owner, key)
    }
  }
  return changed
}

function includes(keys: PropertyKey[], key: PropertyKey): boolean {
  for (let index = 0; index < keys.length; index++) if (keys[index] === key) return true
  return false
}

function sameDescriptor(left: PropertyDescriptor, right: PropertyDescriptor): boolean {
  return (
    left.value === right.value &&
    left.get === right.get &&
    left.set === right.set &&
    left.writable === right.writable &&
    left.enumerable === right.enumerable &&
    left.configurable === right.configurable
  )
}
