// What the page shows of a loaded project: the tools in the order opencode offers them, each with
// where it comes from, what it overrides, its load diagnostics and doctor findings, and its schema
// as each provider receives it (after opencode's fixes for that provider's model).
import path from "node:path"
import type { Finding } from "../doctor/finding.ts"
import type { EngineInfo } from "../runtime/here.ts"
import type { LintFinding } from "../lint/lint.ts"
import { lintSchemas } from "../lint/lint.ts"
import type { LintProvider } from "../lint/providers.ts"
import { LINT_PROVIDERS } from "../lint/providers.ts"
import { getToolSchemas, listTools } from "../list-tools.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import type { Diagnostic, ListedTool, ToolProject } from "../types.ts"

/** The providers shown side by side, each with the one model the provider lint builds its request for. */
const INSPECTOR_PROVIDERS = ["openai-compatible", "openai", "anthropic", "google", "moonshot"] as const

type ProviderView = {
  name: LintProvider
  label: string
  model: { npm: string; providerID: string; modelID: string }
}

type ToolView = ListedTool & {
  description?: string
  /** The files of earlier tools with this id that this one replaces. */
  replaces: string[]
  diagnostics: Diagnostic[]
  /** doctor's findings for this tool's file, and what each provider rejects of its schema. */
  findings: Array<Finding | LintFinding>
}

export type ProjectView = {
  /** Counts loads: a call's result names the load it ran in. */
  generation: number
  engine: EngineInfo | undefined
  directory: string
  loadMs: number
  /** Why the project could not be loaded at all (an opencode.json that cannot be parsed, no Bun). */
  error?: { code: string; message: string }
  /**
   * Why opencode would offer no tool at all although the project loaded: a tool file that fails to
   * import takes opencode's whole tool list down (docs/opencode-contract.md#tool-files). `tools` and
   * `schemas` are then empty, as opencode's request would be, and calls are not run.
   */
  noTools?: { code: string; message: string }
  tools: ToolView[]
  /** Diagnostics and findings that belong to no offered tool (a file that failed to import, say). */
  problems: Array<Diagnostic | Finding>
  providers: ProviderView[]
  /** Per provider: the tools' schemas by id, or why opencode could not build the list. */
  schemas: Record<string, { tools: Record<string, ToolSchema> } | { error: { code: string; message: string } }>
  /** False until doctor's findings arrived (they are computed after the tools are shown). */
  diagnosed: boolean
}

/** The view of a project that loaded. */
export async function projectView(
  project: ToolProject,
  context: { generation: number; loadMs: number },
): Promise<ProjectView> {
  const noTools = noToolsReason(project)
  if (noTools)
    return {
      generation: context.generation,
      engine: project.engine,
      directory: project.directory,
      loadMs: context.loadMs,
      noTools,
      tools: [],
      problems: aboutOffered(project, project.diagnostics, project.directory),
      providers: INSPECTOR_PROVIDERS.map((name) => ({ name, ...LINT_PROVIDERS[name] })),
      schemas: Object.fromEntries(INSPECTOR_PROVIDERS.map((name) => [name, { error: noTools }])),
      diagnosed: false,
    }
  const tools: ToolView[] = listTools(project).map((listed) => {
    const loaded = listed.source === "builtin" ? undefined : project.tools.find((tool) => offered(tool, listed))
    const view: ToolView = { ...listed, replaces: [], diagnostics: [], findings: [] }
    if (loaded) view.description = loaded.description
    view.replaces = project.tools
      .filter((tool) => tool.id === listed.id && tool !== loaded && tool.overriddenBy !== undefined)
      .map((tool) => tool.file)
    if (listed.file !== undefined) view.diagnostics = project.diagnostics.filter((item) => item.file === listed.file)
    return view
  })
  const claimed = new Set(tools.flatMap((tool) => tool.diagnostics))
  const providers = INSPECTOR_PROVIDERS.map((name) => ({ name, ...LINT_PROVIDERS[name] }))
  const schemas: ProjectView["schemas"] = {}
  const results = await Promise.all(providers.map((provider) => getToolSchemas(project, { model: provider.model })))
  for (const [index, provider] of providers.entries()) {
    const result = results[index]!
    if (!result.success) {
      schemas[provider.name] = { error: { code: result.error.code, message: result.error.message } }
      continue
    }
    schemas[provider.name] = { tools: Object.fromEntries(result.value.map((schema) => [schema.name, schema])) }
    for (const finding of lintSchemas(provider.name, result.value, { toolCount: tools.length }))
      tools.find((tool) => tool.id === finding.tool)?.findings.push(finding)
  }
  return {
    generation: context.generation,
    engine: project.engine,
    directory: project.directory,
    loadMs: context.loadMs,
    tools,
    problems: project.diagnostics.filter((item) => !claimed.has(item)),
    providers,
    schemas,
    diagnosed: false,
  }
}

/** The view of a project that could not be loaded. */
export function failedView(
  directory: string,
  error: { code: string; message: string },
  context: { generation: number; loadMs: number },
): ProjectView {
  return {
    generation: context.generation,
    engine: undefined,
    directory,
    loadMs: context.loadMs,
    error,
    tools: [],
    problems: [],
    providers: INSPECTOR_PROVIDERS.map((name) => ({ name, ...LINT_PROVIDERS[name] })),
    schemas: {},
    diagnosed: true,
  }
}

/** Adds doctor's findings: each to the tools of its file, the rest to the project's problems. */
export function withFindings(view: ProjectView, findings: Finding[], cwd: string): ProjectView {
  // A load diagnostic, or a provider's rejection, and doctor's finding for it say the same (doctor
  // lints for every provider it knows): keep doctor's.
  const tools = view.tools.map((tool) => ({
    ...tool,
    diagnostics: [],
    findings: findings.filter((finding) => finding.file !== null && path.resolve(cwd, finding.file) === tool.file),
  }))
  const files = new Set(view.tools.flatMap((tool) => (tool.file === undefined ? [] : [tool.file])))
  const rest = findings.filter((finding) => finding.file === null || !files.has(path.resolve(cwd, finding.file)))
  return { ...view, tools, problems: rest, diagnosed: true }
}

/**
 * What is said of what opencode offers: while a tool file fails to import it offers no tool, and
 * what load diagnostics or doctor's findings say of the tools that did load (a provider's
 * rejection, a bad result) is about tools the page does not list, so it is left out until the fix.
 * The import failures stay, with whatever names no tool's file. `cwd`: what relative files are
 * relative to.
 */
export function aboutOffered<T extends { file?: string | null | undefined }>(
  project: ToolProject,
  items: T[],
  cwd: string,
): T[] {
  if (!noToolsReason(project)) return items
  const failed = new Set(
    project.diagnostics.flatMap((item) => (item.code === "IMPORT_FAILED" && item.file ? [item.file] : [])),
  )
  const unoffered = new Set(project.tools.map((tool) => tool.file).filter((file) => !failed.has(file)))
  return items.filter((item) => typeof item.file !== "string" || !unoffered.has(path.resolve(cwd, item.file)))
}

/**
 * Why opencode offers no tool at all for this load, when it offers none: a tool file failed to
 * import. tool-tester loads the other files anyway (to show them); opencode does not. A plugin
 * that fails to import only loses its own tools.
 */
export function noToolsReason(project: ToolProject): { code: string; message: string } | undefined {
  const toolFiles = new Set(project.files.map((entry) => entry.file))
  const failed = project.diagnostics.filter(
    (item) => item.code === "IMPORT_FAILED" && item.file !== undefined && toolFiles.has(item.file),
  )
  if (failed.length === 0) return undefined
  const files = failed.map((item) => path.relative(project.directory, item.file!))
  const one = files.length === 1
  // What went wrong in the first one, without its path again (`<file>: failed to import: <why>`).
  const first = failed[0]!
  const cause = first.message.startsWith(`${first.file}: `)
    ? first.message.slice(first.file!.length + 2)
    : first.message
  return {
    code: "IMPORT_FAILED",
    message: `opencode offers no tools while ${files.join(", ")} ${one ? "fails" : "fail"} to import (one file that does not import takes its whole tool list down): fix ${one ? "the file" : "them"}; ${files[0]}: ${cause}`,
  }
}

// --- internal ---

function offered(tool: ToolProject["tools"][number], listed: ListedTool): boolean {
  return (
    tool.id === listed.id &&
    tool.file === listed.file &&
    tool.overriddenBy === undefined &&
    tool.export === listed.export
  )
}
