// Visits every sub-schema of a JSON Schema with its JSON pointer, so rules can say where a problem is.
import { isRecord } from "../_is-record.ts"

export type SchemaNode = Record<string, unknown> | boolean

const MAP_KEYS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]
const LIST_KEYS = ["anyOf", "oneOf", "allOf", "prefixItems"]
const SINGLE_KEYS = ["additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"]

/** Calls visit for the root and each sub-schema (objects and boolean schemas), depth first. */
export function walkSchema(root: unknown, visit: (node: SchemaNode, pointer: string, key: string) => void): void {
  const seen = new Set<unknown>()
  const go = (node: unknown, pointer: string, key: string) => {
    if (typeof node === "boolean") return visit(node, pointer, key)
    if (!isRecord(node) || seen.has(node)) return
    seen.add(node)
    visit(node, pointer, key)
    for (const mapKey of MAP_KEYS) {
      const map = node[mapKey]
      if (!isRecord(map)) continue
      for (const [name, child] of Object.entries(map)) go(child, `${pointer}/${mapKey}/${escapeSegment(name)}`, mapKey)
    }
    for (const listKey of LIST_KEYS) {
      const list = node[listKey]
      if (!Array.isArray(list)) continue
      for (const [index, child] of list.entries()) go(child, `${pointer}/${listKey}/${index}`, listKey)
    }
    const items = node["items"]
    if (Array.isArray(items)) {
      for (const [index, child] of items.entries()) go(child, `${pointer}/items/${index}`, "items")
    } else go(items, `${pointer}/items`, "items")
    for (const singleKey of SINGLE_KEYS) go(node[singleKey], `${pointer}/${singleKey}`, singleKey)
  }
  go(root, "#", "")
}

/** Where a pointer is, for a message: `#/properties/city` reads `city`; the root reads `the root`. */
export function describePointer(pointer: string): string {
  if (pointer === "#") return "the root"
  const names = pointer
    .slice(2)
    .split("/")
    .filter((segment, index, all) => !(segment === "properties" && index < all.length - 1))
  return names.join(".")
}

function escapeSegment(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1")
}
