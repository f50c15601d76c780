import path from "node:path"
import type { Finding } from "./finding.ts"
import { zodNodes } from "./zod-walk.ts"

/**
 * Schemas from more than one copy of zod: different versions (from `_zod.version`), or the same
 * version loaded twice (schemas of one kind built by different constructors). opencode converts
 * every schema with its own zod (4.1.8 in 1.18.34); schemas from other copies mostly work, but a
 * version skew can change or break the JSON Schema, and checks such as `instanceof` fail across
 * copies. One finding for the project.
 */
export function zodCopyFindings(tools: ReadonlyArray<{ file: string; args: unknown }>): Finding[] {
  const versions = new Map<string, Set<string>>()
  const constructorsByType = new Map<string, Map<unknown, Set<string>>>()
  for (const tool of tools) {
    if (typeof tool.args !== "object" || tool.args === null) continue
    for (const node of zodNodes(tool.args as Record<string, unknown>)) {
      const version = versionOf(node.schema)
      if (version) versions.set(version, (versions.get(version) ?? new Set()).add(tool.file))
      // By kind and class name: z.email() and z.string() share a def.type but are classes of their
      // own in one copy (so are z.int() and z.number(), z.discriminatedUnion() and z.union()).
      const kind = `${node.def.type}/${(node.schema.constructor as { name?: unknown } | undefined)?.name}`
      const constructors = constructorsByType.get(kind) ?? new Map<unknown, Set<string>>()
      constructors.set(node.schema.constructor, (constructors.get(node.schema.constructor) ?? new Set()).add(tool.file))
      constructorsByType.set(kind, constructors)
    }
  }
  const list = (files: Set<string>) => [...files].map((file) => path.basename(file)).join(", ")
  if (versions.size > 1) {
    const copies = [...versions].map(([version, files]) => `zod ${version} (${list(files)})`)
    return [
      finding(
        `tool schemas come from ${versions.size} zod copies: ${copies.join(", ")}`,
        [...versions.keys()],
        firstFile(versions),
      ),
    ]
  }
  for (const [kind, constructors] of constructorsByType) {
    if (constructors.size < 2) continue
    const type = kind.slice(0, kind.indexOf("/"))
    const version = [...versions.keys()][0] ?? "4"
    const copies = [...constructors.values()].map((files) => `(${list(files)})`)
    return [
      finding(
        `tool schemas come from ${constructors.size} copies of zod ${version} (z.${type}() built by different copies: ${copies.join(", ")})`,
        [version],
        firstFile(constructors),
      ),
    ]
  }
  return []
}

// --- internal ---

function finding(what: string, versions: string[], file: string | null): Finding {
  return {
    code: "SECOND_ZOD_COPY",
    severity: "warning",
    file,
    message: `${what}; opencode converts them all with its own zod 4.1.8: build every schema with one zod (tool.schema from @opencode-ai/plugin, or the zod version it depends on)`,
    data: { versions },
  }
}

function versionOf(schema: object): string | undefined {
  const version = (schema as { _zod?: { version?: { major?: unknown; minor?: unknown; patch?: unknown } } })._zod
    ?.version
  if (!version || typeof version.major !== "number") return undefined
  return `${version.major}.${version.minor}.${version.patch}`
}

function firstFile(groups: Map<unknown, Set<string>>): string | null {
  const first = [...groups.values()].at(-1)
  return first ? ([...first][0] ?? null) : null
}
