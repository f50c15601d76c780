// `$ref`s inside a JSON Schema as opencode sends it: where they point, and whether they resolve.

/** Every local `$ref` (`#/...`) in the schema, in document order, once each. */
export function localRefs(schema: unknown): string[] {
  const refs = new Set<string>()
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (typeof value !== "object" || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith("#")) refs.add(child)
      else visit(child)
    }
  }
  visit(schema)
  return [...refs]
}

/** `$ref`s of the form `#/...` whose JSON pointer does not resolve inside the schema. */
export function danglingRefs(schema: Record<string, unknown>): string[] {
  return localRefs(schema).filter((ref) => resolvePointer(schema, ref) === undefined)
}

/** The value a local JSON pointer (`#/a/b`) names inside root, or undefined when it names nothing. */
export function resolvePointer(root: unknown, ref: string): unknown {
  let current: unknown = root
  for (const segment of ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~")
    if (typeof current !== "object" || current === null || !(key in current)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
