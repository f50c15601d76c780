import type { Finding, FindingCode } from "./finding.ts"
import type { ZodNode } from "./zod-walk.ts"
import { zodNodes } from "./zod-walk.ts"

/**
 * Schemas that only work when zod parses the arguments. opencode 1.18 passes a custom tool the
 * arguments exactly as the model sent them (docs/opencode-contract.md#raw-arguments): defaults are not
 * filled in, transforms and coercions do not run, refinements are not checked. One finding per
 * kind and tool, naming the args.
 */
export function rawArgumentFindings(tool: { id: string; file: string; args: Record<string, unknown> }): Finding[] {
  const found = new Map<FindingCode, string[]>()
  const note = (code: FindingCode, path: string) => {
    const paths = found.get(code) ?? []
    if (!paths.includes(path)) paths.push(path)
    found.set(code, paths)
  }
  for (const node of zodNodes(tool.args)) {
    for (const code of codesOf(node)) note(code, node.path)
  }
  return [...found].map(([code, paths]) => ({
    code,
    severity: "warning" as const,
    file: tool.file,
    message: `tool ${tool.id}: ${adviceFor(code, paths.join(", "))}`,
    data: { tool: tool.id, args: paths },
  }))
}

// --- internal ---

function codesOf(node: ZodNode): FindingCode[] {
  const { def } = node
  const codes: FindingCode[] = []
  if (def.type === "default" || def.type === "prefault" || def.type === "catch") codes.push("DEFAULT_NOT_APPLIED")
  if (def.type === "transform" || def.type === "pipe") codes.push("TRANSFORM_NOT_APPLIED")
  if (def.coerce === true) codes.push("COERCE_NOT_APPLIED")
  for (const check of def.checks ?? []) {
    const kind = check?._zod?.def?.check
    if (kind === "custom") codes.push("REFINE_NOT_CHECKED")
    if (kind === "overwrite") codes.push("TRANSFORM_NOT_APPLIED")
  }
  return codes
}

function adviceFor(code: FindingCode, args: string): string {
  switch (code) {
    case "DEFAULT_NOT_APPLIED":
      return `${args} relies on .default()/.catch(), but opencode passes raw arguments, so execute gets undefined when the model leaves it out: apply the default in execute (args.x ?? value)`
    case "TRANSFORM_NOT_APPLIED":
      return `${args} relies on .transform()/.pipe()/.trim()-style rewrites, but opencode passes raw arguments, so execute gets the untransformed value: do the conversion in execute`
    case "COERCE_NOT_APPLIED":
      return `${args} uses z.coerce, but opencode passes raw arguments, so execute gets the JSON value as sent (a "5" stays a string): convert it in execute`
    default:
      return `${args} relies on .refine()/.superRefine(), but opencode does not validate custom tools' arguments: check the condition in execute (the run command's --validate shows zod's verdict)`
  }
}
