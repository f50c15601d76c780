// The members ECMAScript defines on the built-ins _pristine.ts watches (up to ES2025, plus the
// proposals at stage 4 since, and Annex B), by the label _pristine.ts gives each owner. A tool that
// adds one of these where the runtime lacks it (a guarded polyfill: `Promise.withResolvers` or
// `Set.prototype.union` on Node 20, core-js) changes nothing the pipeline uses, since the pipeline
// cannot use what its oldest runtime lacks: that is not tampering, and the polyfill is kept for the
// tool's later calls, as it stays in opencode. Listed by hand: no maintained package lists the
// standard members per built-in without bringing a polyfill library or a browser database along.

// No prototype: a key a tool adds to Object.prototype is not a label here.
const STANDARD: Record<string, readonly string[]> = Object.assign(Object.create(null) as object, {
  JSON: ["parse", "stringify", "rawJSON", "isRawJSON"],
  Object: [
    "assign",
    "create",
    "defineProperties",
    "defineProperty",
    "entries",
    "freeze",
    "fromEntries",
    "getOwnPropertyDescriptor",
    "getOwnPropertyDescriptors",
    "getOwnPropertyNames",
    "getOwnPropertySymbols",
    "getPrototypeOf",
    "groupBy",
    "hasOwn",
    "is",
    "isExtensible",
    "isFrozen",
    "isSealed",
    "keys",
    "preventExtensions",
    "seal",
    "setPrototypeOf",
    "values",
  ],
  Array: ["from", "fromAsync", "isArray", "of"],
  Promise: ["all", "allSettled", "any", "race", "reject", "resolve", "try", "withResolvers"],
  Math: [
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "atan2",
    "cbrt",
    "ceil",
    "clz32",
    "cos",
    "cosh",
    "exp",
    "expm1",
    "f16round",
    "floor",
    "fround",
    "hypot",
    "imul",
    "log",
    "log1p",
    "log10",
    "log2",
    "max",
    "min",
    "pow",
    "random",
    "round",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "sumPrecise",
    "tan",
    "tanh",
    "trunc",
  ],
  Number: ["isFinite", "isInteger", "isNaN", "isSafeInteger", "parseFloat", "parseInt", "EPSILON"],
  String: ["fromCharCode", "fromCodePoint", "raw"],
  "Array.prototype": [
    "at",
    "copyWithin",
    "entries",
    "fill",
    "find",
    "findIndex",
    "findLast",
    "findLastIndex",
    "flat",
    "flatMap",
    "includes",
    "keys",
    "toReversed",
    "toSorted",
    "toSpliced",
    "values",
    "with",
  ],
  "String.prototype": [
    "at",
    "codePointAt",
    "endsWith",
    "includes",
    "isWellFormed",
    "matchAll",
    "normalize",
    "padEnd",
    "padStart",
    "repeat",
    "replaceAll",
    "startsWith",
    "toWellFormed",
    "trimEnd",
    "trimStart",
    "trimLeft",
    "trimRight",
  ],
  "Symbol.prototype": ["description"],
  "Promise.prototype": ["finally"],
  "RegExp.prototype": ["dotAll", "flags", "hasIndices", "sticky", "unicode", "unicodeSets"],
  "Set.prototype": [
    "difference",
    "intersection",
    "isDisjointFrom",
    "isSubsetOf",
    "isSupersetOf",
    "symmetricDifference",
    "union",
  ],
  // The iterator helpers (ES2025), which Node 20 lacks and Bun has; `constructor` and
  // `[Symbol.toStringTag]` are accessors there, added with them; `[Symbol.dispose]` (explicit
  // resource management), which Bun has too.
  "%IteratorPrototype%": [
    "constructor",
    "drop",
    "every",
    "filter",
    "find",
    "flatMap",
    "forEach",
    "map",
    "reduce",
    "some",
    "take",
    "toArray",
    "@@toStringTag",
    "@@dispose",
  ],
})

/** The well-known symbols a standard member may be keyed by, as STANDARD writes them. */
const WELL_KNOWN: Array<[symbol | undefined, string]> = [
  [Symbol.toStringTag, "@@toStringTag"],
  // Node 20 and Bun have it; a runtime without it has no such key to add.
  [(Symbol as { dispose?: symbol }).dispose, "@@dispose"],
]

/** Whether `key` is a standard member of the built-in _pristine.ts labels `label`. */
export function isStandardMember(label: string, key: PropertyKey): boolean {
  let name: string | undefined
  if (typeof key === "string") name = key
  else
    for (let index = 0; index < WELL_KNOWN.length; index++)
      if (WELL_KNOWN[index]![0] === key) name = WELL_KNOWN[index]![1]
  const names = STANDARD[label]
  if (name === undefined || names === undefined) return false
  for (let index = 0; index < names.length; index++) if (names[index] === name) return true
  return false
}
