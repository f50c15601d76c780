// The AI SDK's guard on a tool call's parsed arguments, which opencode 1.18.34 runs before any tool
// (docs/opencode-contract.md#repair, observed: test/repair.test.ts): arguments holding a
// `__proto__` key, or a `constructor` object with a `prototype` key, at any depth (in arrays too,
// escaped keys too), fail to parse with this message, and the call is rerouted as for bad JSON.

/** The message the model reads after `Error message: `. */
export const FORBIDDEN_PROTOTYPE = "Object contains forbidden prototype property"

/** Whether JSON.parse's `value` holds a key the guard refuses. Walks without recursion: JSON can nest deeper than the stack. */
export function hasForbiddenPrototype(value: unknown): boolean {
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== "object" || node === null) continue
    if (Object.hasOwn(node, "__proto__")) return true
    if (Object.hasOwn(node, "constructor")) {
      const constructorValue = (node as { constructor: unknown }).constructor
      if (
        typeof constructorValue === "object" &&
        constructorValue !== null &&
        Object.hasOwn(constructorValue, "prototype")
      )
        return true
    }
    for (const child of Object.values(node)) pending.push(child)
  }
  return false
}
