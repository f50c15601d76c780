import { existsSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { CreateToolError } from "./errors.ts"
import { topLevelIdentifiers } from "./render.ts"

// The templates are real files: in the repository's top-level templates/ folder, and inside the
// package once packed (the prepack script copies them). Each folder with a template.json is a
// template; folders starting with "_" hold the files around the tool (see templates/README.md).

export type TemplateInfo = {
  /** The folder name, given to --template. */
  name: string
  /** One line for --help and the template question. */
  summary: string
  /** The tool description used when --description is not given. */
  description: string
  /** Arguments that make the tool run, shown in the printed `tool-tester run` command. */
  exampleArgs: Record<string, unknown>
  /** Names the tool files declare at their top level, which named exports must not take. */
  reservedExportNames: string[]
}

export type Template = TemplateInfo & {
  /** File name -> content, for every file of the template folder but template.json. */
  files: ReadonlyMap<string, string>
}

/** The templates folder of this installation: `<package>/templates`, else the repository's. */
export function findTemplatesDirectory(): string {
  const candidates = [new URL("../templates/", import.meta.url), new URL("../../../templates/", import.meta.url)]
  for (const candidate of candidates) {
    const directory = fileURLToPath(candidate)
    if (existsSync(join(directory, "default", "template.json"))) return directory
  }
  throw new CreateToolError(
    "TEMPLATES_NOT_FOUND",
    `The templates folder is missing next to ${fileURLToPath(new URL(".", import.meta.url))}: reinstall create-tool.`,
  )
}

/** Every template, `default` first, then by name. */
export async function listTemplates(templatesDirectory: string): Promise<TemplateInfo[]> {
  const entries = await readdir(templatesDirectory, { withFileTypes: true })
  const names = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("_"))
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(templatesDirectory, name, "template.json")))
    .sort((left, right) => (left === "default" ? -1 : right === "default" ? 1 : left.localeCompare(right)))
  return Promise.all(names.map((name) => readTemplateInfo(templatesDirectory, name)))
}

export async function readTemplate(templatesDirectory: string, name: string): Promise<Template> {
  const templates = await listTemplates(templatesDirectory)
  if (!templates.some((template) => template.name === name)) {
    const known = templates.map((template) => template.name).join(", ")
    throw new CreateToolError("UNKNOWN_TEMPLATE", `Unknown template "${name}": choose one of ${known}.`, {
      data: { template: name },
    })
  }
  const info = await readTemplateInfo(templatesDirectory, name)
  const files = await readFolder(join(templatesDirectory, name))
  files.delete("template.json")
  return { ...info, files }
}

/** The files of a folder (not recursive): name -> content. */
export async function readFolder(directory: string): Promise<Map<string, string>> {
  const entries = await readdir(directory, { withFileTypes: true })
  const files = new Map<string, string>()
  for (const entry of entries.filter((entry) => entry.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
    files.set(entry.name, await readFile(join(directory, entry.name), "utf8"))
  }
  return files
}

// --- internal ---

async function readTemplateInfo(templatesDirectory: string, name: string): Promise<TemplateInfo> {
  const folder = join(templatesDirectory, name)
  const raw = JSON.parse(await readFile(join(folder, "template.json"), "utf8")) as Pick<
    TemplateInfo,
    "summary" | "description" | "exampleArgs"
  >
  const reserved = new Set<string>()
  for (const file of ["tool.ts", "tool.js"]) {
    const source = await readFile(join(folder, file), "utf8").catch(() => "")
    for (const identifier of topLevelIdentifiers(source)) reserved.add(identifier)
  }
  return {
    name,
    summary: raw.summary,
    description: raw.description,
    exampleArgs: raw.exampleArgs,
    reservedExportNames: [...reserved].sort(),
  }
}
