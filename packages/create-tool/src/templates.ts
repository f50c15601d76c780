import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { CreateToolError } from "./errors.ts"
import { printable, quoted } from "./printable.ts"
import { topLevelIdentifiers } from "./render.ts"

// The templates are real files: in the repository's top-level templates/ folder, and inside the
// package once packed (the prepack script copies them). Each folder with a template.json is a
// template; folders starting with "_" hold the files around the tool (see templates/README.md).
// They are a few small files, read synchronously as create-vite does: it is faster than promises.

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
    `The templates folder is missing next to ${printable(fileURLToPath(new URL(".", import.meta.url)))}: reinstall create-tool.`,
  )
}

/** Every template, `default` first, then by name. */
export async function listTemplates(templatesDirectory: string): Promise<TemplateInfo[]> {
  return templateNames(templatesDirectory).map((name) => {
    const { files, ...info } = readTemplateFolder(templatesDirectory, name)
    return info
  })
}

export async function readTemplate(templatesDirectory: string, name: string): Promise<Template> {
  const names = templateNames(templatesDirectory)
  if (!names.includes(name)) {
    throw new CreateToolError(
      "UNKNOWN_TEMPLATE",
      `Unknown template ${quoted(name)}: choose one of ${names.join(", ")}.`,
      {
        data: { template: name },
      },
    )
  }
  return readTemplateFolder(templatesDirectory, name)
}

/** The files of a folder (not recursive): name -> content. */
export function readFolder(directory: string): Map<string, string> {
  const entries = readdirSync(directory, { withFileTypes: true })
  const files = new Map<string, string>()
  for (const entry of entries.filter((entry) => entry.isFile()).sort((a, b) => byCodePoint(a.name, b.name))) {
    files.set(entry.name, readFileSync(join(directory, entry.name), "utf8"))
  }
  return files
}

// --- internal ---

/** Plain string order: localeCompare would load ICU's collator, 15 ms of a 60 ms run. */
function byCodePoint(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0
}

function templateNames(templatesDirectory: string): string[] {
  return readdirSync(templatesDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("_"))
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(templatesDirectory, name, "template.json")))
    .sort((left, right) => (left === "default" ? -1 : right === "default" ? 1 : byCodePoint(left, right)))
}

function readTemplateFolder(templatesDirectory: string, name: string): Template {
  const files = readFolder(join(templatesDirectory, name))
  const raw = JSON.parse(files.get("template.json") ?? "{}") as Pick<
    TemplateInfo,
    "summary" | "description" | "exampleArgs"
  >
  files.delete("template.json")
  const reserved = new Set<string>()
  for (const file of ["tool.ts", "tool.js"]) {
    for (const identifier of topLevelIdentifiers(files.get(file) ?? "")) reserved.add(identifier)
  }
  return {
    name,
    summary: raw.summary,
    description: raw.description,
    exampleArgs: raw.exampleArgs,
    reservedExportNames: [...reserved].sort(),
    files,
  }
}
