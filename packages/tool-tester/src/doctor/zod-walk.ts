// Walks zod 4 schemas from any copy of zod through their `_zod.def`, the structure zod itself
// reads; recognised by shape, never by instanceof.

/** One zod 4 schema node and where it sits under the tool's args (`city`, `items[]`, `options.mode`). */
export type ZodNode = { path: string; def: ZodDef; schema: object }

type ZodDef = {
  type: string
  checks?: Array<{ _zod?: { def?: { check?: string } } }>
  coerce?: boolean
  [key: string]: unknown
}

/** Every node of every arg, parents before children; recursive (z.lazy, getters) schemas are visited once. */
export function zodNodes(args: Record<string, unknown>): ZodNode[] {
  const nodes: ZodNode[] = []
  const seen = new Set<unknown>()
  const visit = (schema: unknown, path: string) => {
    const def = defOf(schema)
    if (!def || seen.has(schema)) return
    seen.add(schema)
    nodes.push({ path, def, schema: schema as object })
    for (const [child, suffix] of childrenOf(def)) visit(child, path + suffix)
  }
  for (const [key, schema] of Object.entries(args)) visit(schema, key)
  return nodes
}

/** The `_zod.def` of a zod 4 schema, or undefined for anything else. */
function defOf(schema: unknown): ZodDef | undefined {
  if (typeof schema !== "object" || schema === null || !("_zod" in schema)) return undefined
  const internals = (schema as { _zod: unknown })._zod
  if (typeof internals !== "object" || internals === null) return undefined
  const def = (internals as { def?: unknown }).def
  return typeof def === "object" && def !== null && typeof (def as { type?: unknown }).type === "string"
    ? (def as ZodDef)
    : undefined
}

// --- internal ---

function childrenOf(def: ZodDef): Array<[unknown, string]> {
  const children: Array<[unknown, string]> = []
  const add = (value: unknown, suffix: string) => {
    if (value !== undefined) children.push([value, suffix])
  }
  switch (def.type) {
    case "object": {
      const shape = safely(() => def["shape"])
      if (typeof shape === "object" && shape !== null)
        for (const [key, value] of Object.entries(shape)) add(value, `.${key}`)
      add(def["catchall"], ".*")
      break
    }
    case "array":
      add(def["element"], "[]")
      break
    case "tuple":
      for (const [index, item] of (Array.isArray(def["items"]) ? def["items"] : []).entries()) add(item, `[${index}]`)
      add(def["rest"], "[]")
      break
    case "record":
    case "map":
      add(def["valueType"], "[*]")
      break
    case "set":
      add(def["valueType"], "[]")
      break
    case "union":
      for (const option of Array.isArray(def["options"]) ? def["options"] : []) add(option, "")
      break
    case "intersection":
      add(def["left"], "")
      add(def["right"], "")
      break
    case "pipe":
      add(def["in"], "")
      add(def["out"], "")
      break
    case "lazy":
      add(
        safely(() => (typeof def["getter"] === "function" ? (def["getter"] as () => unknown)() : undefined)),
        "",
      )
      break
    default:
      // optional, nullable, default, prefault, catch, readonly, nonoptional, success, promise
      add(def["innerType"], "")
  }
  return children
}

function safely(read: () => unknown): unknown {
  try {
    return read()
  } catch {
    return undefined
  }
}
