// What `tool-tester eval` needs to know of a project's tools before it asks a model, found in an
// engine's process (eval never imports user code in its own): the tools a model is offered (ids,
// descriptions, schemas, to check the cases against and to write starter cases from), each tool
// file's exports (to write its wrapper), and where each tool id is defined, so that the guard
// refuses a call of an id that anything but a wrapper or a built-in answers (a plugin's `read`, a
// `~/.opencode` tool of the same id as a project tool).
import path from "node:path"
import type { Reached } from "../engine-client/protocol.ts"
import type { EvalToolsInput } from "./task.ts"
import { getToolSchemas } from "../list-tools.ts"
import { loadProjectHere } from "../load-tools.ts"
import type { Diagnostic } from "../types.ts"

export type EvalToolsPayload = {
  /** Custom and plugin tools as opencode's default model is offered them. */
  tools: Array<{ id: string; description: string; parameters: unknown }>
  /** Why the list above may be incomplete (a tool file that failed to import, a schema zod cannot convert). */
  listError?: string
  /** Each tool file that was imported, with its tool exports (export name and tool id). */
  files: Array<{ file: string; tools: Array<{ exportName: string; id: string }> }>
  /** Tool files that failed to import, with why. */
  failed: Array<{ file: string; message: string }>
  /** Every place a tool id is defined, in load order: a tool file (with its config folder's kind) or a plugin. */
  definitions: Array<{ id: string; source: "file" | "plugin"; file: string; folderKind?: string }>
}

export async function evalToolsTask(
  input: EvalToolsInput,
  loaded: (reached: Reached | undefined) => void,
): Promise<EvalToolsPayload> {
  const project = await loadProjectHere({ directory: input.directory, global: true }, { skipFiles: input.skip })
  loaded(undefined)
  const errors = project.diagnostics.filter(
    (diagnostic) => diagnostic.severity === "error" && diagnostic.code !== "NO_TOOLS",
  )
  const failedFiles = new Set(errors.map((diagnostic) => diagnostic.file).filter((file) => file !== undefined))
  const files = project.files
    .filter((entry) => !failedFiles.has(entry.file) && !input.skip.includes(entry.file))
    .map((entry) => ({
      file: entry.file,
      tools: project.tools
        .filter((tool) => tool.source === "file" && tool.file === entry.file)
        .map((tool) => ({ exportName: tool.export ?? "default", id: tool.id })),
    }))
  const kindOf = (file: string) =>
    project.configDirectories.find((folder) => path.dirname(path.dirname(file)) === folder.path)?.kind
  const definitions = project.tools.map((tool) => {
    const folderKind = tool.source === "file" ? kindOf(tool.file) : undefined
    return { id: tool.id, source: tool.source, file: tool.file, ...(folderKind === undefined ? {} : { folderKind }) }
  })
  const schemas = await getToolSchemas(project)
  const tools = schemas.success
    ? schemas.value.map((schema) => ({
        id: schema.name,
        description: schema.description,
        parameters: schema.parameters,
      }))
    : []
  const listError = schemas.success ? errors[0]?.message : schemas.error.message
  return {
    tools,
    ...(listError === undefined ? {} : { listError }),
    files,
    failed: errors
      .filter((diagnostic): diagnostic is Diagnostic & { file: string } => diagnostic.file !== undefined)
      .map((diagnostic) => ({ file: diagnostic.file, message: diagnostic.message })),
    definitions,
  }
}
