// Descriptions and `.meta()` live in the registry of the zod copy that set them, so a converter
// from another copy cannot see them. opencode copies them into one fresh registry first; so do we.
import { z } from "zod"

/**
 * A fresh registry holding, for every zod type reachable from `root` through `_zod.def`, its
 * `.meta()` (when an object) merged with `{ description }` (when a string), if non-empty.
 */
export function collectZodMetadata(root: unknown): z.core.$ZodRegistry<Record<string, unknown>> {
  const registry = z.registry<Record<string, unknown>>()
  const visited = new Set<unknown>()

  const visit = (value: unknown): void => {
    if (typeof value !== "object" || value === null || visited.has(value)) return
    visited.add(value)
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
      return
    }
    if (!("_zod" in value)) {
      for (const child of Object.values(value)) visit(child)
      return
    }
    const metadata = metadataOf(value)
    if (Object.keys(metadata).length > 0) registry.add(value as z.core.$ZodType, metadata)
    const internals = value._zod
    if (typeof internals === "object" && internals !== null && "def" in internals) visit(internals.def)
  }

  visit(root)
  return registry
}

// --- internal ---

function metadataOf(schema: object): Record<string, unknown> {
  const { meta, description } = schema as { meta?: unknown; description?: unknown }
  const stored: unknown = typeof meta === "function" ? meta.call(schema) : undefined
  const base = typeof stored === "object" && stored !== null ? (stored as Record<string, unknown>) : {}
  return typeof description === "string" ? { ...base, description } : { ...base }
}
