// doctor: why a tool will not work in opencode. Pure functions over a loaded project (no process
// access), so every finding is unit-testable; the CLI only loads the project and prints.

import { liveDefinition } from "../pipeline/live.ts"
import type { ToolTesterError } from "../errors.ts"
import { isZodSchema } from "../schema/tool-json-schema.ts"
import type { ToolProject } from "../types.ts"
import { withoutFilePrefix } from "./_paths.ts"
import { argsSchemaFindings } from "./args-schema.ts"
import { bunApiFindings } from "./bun-api.ts"
import { collisionFindings } from "./collisions.ts"
import type { Finding } from "./finding.ts"
import { loadProblems } from "./load-problems.ts"
import { pnpmInstallFindings } from "./pnpm-install.ts"
import { rawArgumentFindings } from "./raw-arguments.ts"
import { folderLoopFindings, ignoredFileFindings, testFileFindings } from "./tool-files.ts"
import { toolNameFindings } from "./tool-names.ts"
import { zodCopyFindings } from "./zod-copies.ts"

/** Every finding for a project, errors first, then in discovery order. */
export function diagnose(project: ToolProject, options: { cwd: string }): Finding[] {
  const findings: Finding[] = [
    ...loadProblems(project, options),
    ...ignoredFileFindings(project.configDirectories),
    ...folderLoopFindings(project.configDirectories),
    ...testFileFindings(project.files),
    ...bunApiFindings(project),
    ...pnpmInstallFindings(project.configDirectories, options),
  ]
  const seen = new Set<unknown>()
  for (const tool of project.tools) {
    findings.push(...toolNameFindings(tool))
    // One definition exported twice (export default x; export const y = x) is checked once.
    const definition = liveDefinition(tool)
    if (seen.has(definition)) continue
    seen.add(definition)
    const args = definition.args
    findings.push(...argsSchemaFindings({ id: tool.id, file: tool.file, args }))
    if (isShapeOfZod(args) && !parsesItsArguments(definition.execute))
      findings.push(...rawArgumentFindings({ id: tool.id, file: tool.file, args }))
  }
  findings.push(...collisionFindings(project.tools, options))
  // Args that cannot be read were reported above (argsSchemaFindings).
  const readable = project.tools
    .map((tool) => ({ file: tool.file, args: liveDefinition(tool).args }))
    .filter((tool) => canRead(tool.args))
  findings.push(...zodCopyFindings(readable))
  const ordered = [
    ...findings.filter((finding) => finding.severity === "error"),
    ...findings.filter((finding) => finding.severity !== "error"),
  ]
  // The same key order everywhere: code, severity, file, message, then data.
  return ordered.map(({ code, severity, file, message, data }) =>
    data === undefined ? { code, severity, file, message } : { code, severity, file, message, data },
  )
}

/** The finding for an opencode.json opencode refuses (unparsable, or a setting its schema refuses): it does not start, so nothing else is checked. */
export function configFinding(error: ToolTesterError): Finding {
  const file = typeof error.data?.["file"] === "string" ? (error.data["file"] as string) : null
  return {
    code: "CONFIG_INVALID",
    severity: "error",
    file,
    message: withoutFilePrefix(error.message, file ?? undefined),
  }
}

export type { Finding } from "./finding.ts"

// --- internal ---

/**
 * Whether `execute` runs its arguments through zod itself (`z.object(args).safeParse(input)`, as
 * docs/writing-a-tool.md recommends): then defaults, transforms, coercion and refinements apply,
 * and the raw-argument findings would be false alarms. Read from the function's source.
 */
function parsesItsArguments(execute: unknown): boolean {
  if (typeof execute !== "function") return false
  // safeParse / safeParseAsync / parseAsync are zod's; a bare .parse( only right after a call
  // (`z.object(args).parse(`), so JSON.parse and path.parse do not count.
  return /\.(safeParse|safeParseAsync|parseAsync)\s*\(|\)\s*\.parse\s*\(/.test(
    Function.prototype.toString.call(execute),
  )
}

function isShapeOfZod(args: unknown): args is Record<string, unknown> {
  try {
    return (
      typeof args === "object" &&
      args !== null &&
      !isZodSchema(args) &&
      Object.values(args).length > 0 &&
      Object.values(args).every(isZodSchema)
    )
  } catch {
    // Args whose reads throw: argsSchemaFindings reports them.
    return false
  }
}

/** Whether a tool's args can be read without throwing (a hostile Proxy's cannot). */
function canRead(args: unknown): boolean {
  try {
    if (typeof args === "object" && args !== null) Object.entries(args)
    return true
  } catch {
    return false
  }
}
