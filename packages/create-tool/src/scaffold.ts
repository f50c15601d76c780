import { basename } from "node:path"
import { CreateToolError } from "./errors.ts"
import type { ScaffoldOptions } from "./options.ts"
import { type FileStatus, planScaffold, type ScaffoldPlan } from "./plan.ts"
import { printable } from "./printable.ts"
import { writeFilesAtomically } from "./write-files.ts"

// scaffold(): validate, plan, refuse what needs a --force, write all or nothing. It never touches
// process, prompts or colours: the CLI does that around it.

export type WrittenFile = {
  path: string
  /** `created`, `overwritten`, `updated` (package.json gained entries) or `kept` (left as it was). */
  status: "created" | "overwritten" | "updated" | "kept"
}

/** What was scaffolded: the plan's facts (see ScaffoldPlan), with the files as written. */
export type ScaffoldResult = Pick<
  ScaffoldPlan,
  | "location"
  | "language"
  | "template"
  | "root"
  | "directory"
  | "toolName"
  | "packageName"
  | "toolIds"
  | "notes"
  | "test"
  | "testScript"
> &
  Partial<Pick<ScaffoldPlan, "yarnProject">> & { files: WrittenFile[] }

export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const plan = await planScaffold(options)
  // Not even with --force: replacing a file of another extension would mean deleting it.
  const duplicate = duplicateToolIdError(plan) ?? caseCollisionError(plan)
  if (duplicate !== undefined) throw duplicate
  if (plan.builtinOverrides.length > 0 && options.overrideBuiltin !== true) {
    const ids = plan.builtinOverrides.join(", ")
    throw new CreateToolError(
      "BUILTIN_OVERRIDE",
      `Tool id ${ids} would replace opencode's built-in tool of that name: choose another name, or pass --force to replace it.`,
      { data: { toolIds: plan.builtinOverrides } },
    )
  }
  if (plan.existingFiles.length > 0 && options.overwrite !== true) {
    const [first] = plan.existingFiles
    const more = plan.existingFiles.length > 1 ? ` (and ${plan.existingFiles.length - 1} more)` : ""
    throw new CreateToolError(
      "FILE_EXISTS",
      `${printable(first!)}${more} exists already: choose another name, or pass --force to overwrite.`,
      { data: { paths: plan.existingFiles } },
    )
  }
  await writeFilesAtomically(
    plan.files
      .filter((file) => file.status !== "keep")
      .map((file) => ({ path: file.path, content: file.content, replace: file.status !== "create" })),
  )
  return {
    location: plan.location,
    language: plan.language,
    template: plan.template,
    root: plan.root,
    directory: plan.directory,
    toolName: plan.toolName,
    packageName: plan.packageName,
    toolIds: plan.toolIds,
    files: plan.files.map((file) => ({ path: file.path, status: writtenStatus[file.status] })),
    notes: plan.notes,
    test: plan.test,
    testScript: plan.testScript,
    yarnProject: plan.yarnProject,
  }
}

/** The DUPLICATE_TOOL_ID error for a plan whose ids an existing tool file already gives, else undefined. */
export function duplicateToolIdError(plan: Pick<ScaffoldPlan, "idCollisions">): CreateToolError | undefined {
  const [collision] = plan.idCollisions
  if (collision === undefined) return undefined
  return new CreateToolError(
    "DUPLICATE_TOOL_ID",
    `${printable(collision.file)} already gives tool id ${collision.id}, and opencode would load both files as one tool: choose another name, or delete or rename that file first (--force does not).`,
    { data: { collisions: plan.idCollisions } },
  )
}

/** The CASE_COLLISION error for a plan with a file whose name differs only in case from one there, else undefined. */
export function caseCollisionError(plan: Pick<ScaffoldPlan, "caseCollisions">): CreateToolError | undefined {
  const [collision] = plan.caseCollisions
  if (collision === undefined) return undefined
  return new CreateToolError(
    "CASE_COLLISION",
    `${printable(collision.existing)} differs from ${printable(basename(collision.file))} only in case, which macOS and Windows take for one name: choose another name, or rename that one first (--force does not).`,
    { data: { collisions: plan.caseCollisions } },
  )
}

// --- internal ---

const writtenStatus: Record<FileStatus, WrittenFile["status"]> = {
  create: "created",
  overwrite: "overwritten",
  update: "updated",
  keep: "kept",
}
