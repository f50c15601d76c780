import type { PromptObject } from "prompts"
import { CreateToolError } from "./errors.ts"
import {
  defaultPluginToolName,
  exportNamesProblem,
  packageNameProblem,
  pluginToolNameProblem,
  toolNameProblem,
} from "./names.ts"
import type { Language, ToolLocation } from "./options.ts"
import type { CliArguments } from "./parse-args.ts"
import { printable, quoted } from "./printable.ts"
import type { TemplateInfo } from "./templates.ts"

// The questions asked in a terminal. Each one is skipped when its option was given with a valid
// value; an invalid value is asked again, with the problem shown. Ctrl-C throws CANCELLED.
// prompts is imported on the first question, so that runs without a terminal never load it.

export type Answers = {
  name: string
  location: ToolLocation
  /** A plugin's tool id; undefined for other locations. */
  toolName: string | undefined
  template: string
  language: Language
  exports: string[] | undefined
  description: string | undefined
  test: boolean
}

export type QuestionContext = {
  templates: readonly TemplateInfo[]
  /** The folder given (--dir or the working folder), where a plugin package goes. */
  directory: string
  /** The project folder: `directory`, or without --dir inside a .opencode folder, the project it belongs to. */
  projectDirectory: string
  globalDirectory: string
}

export async function askQuestions(args: CliArguments, context: QuestionContext): Promise<Answers> {
  const location = await askLocation(args, context)

  const nameProblem = (value: string) => (location === "plugin" ? packageNameProblem(value) : toolNameProblem(value))
  const name =
    args.name !== undefined && nameProblem(args.name) === undefined
      ? args.name
      : await ask<string>({
          type: "text",
          message: location === "plugin" ? "Package name:" : "Tool name (the tool id):",
          initial: args.name ?? (location === "plugin" ? "opencode-my-tool" : "my-tool"),
          validate: (value: string) => nameProblem(value.trim()) ?? true,
          format: (value: string) => value.trim(),
        })

  // A plugin's tool id is its own question: the package name is for npm, the id is what the model reads.
  const pluginToolName =
    location !== "plugin"
      ? undefined
      : args.toolName !== undefined && pluginToolNameProblem(args.toolName) === undefined
        ? args.toolName
        : await ask<string>({
            type: "text",
            message: "Tool name (the tool id the model sees):",
            initial: args.toolName ?? defaultPluginToolName(name),
            validate: (value: string) => pluginToolNameProblem(value.trim()) ?? true,
            format: (value: string) => value.trim(),
          })

  const knownTemplate = context.templates.find((template) => template.name === args.template)
  const template =
    knownTemplate?.name ??
    (await ask<string>({
      type: "select",
      message: args.template === undefined ? "Template:" : `There is no template ${quoted(args.template)}. Template:`,
      choices: context.templates.map((entry) => ({ title: entry.name, description: entry.summary, value: entry.name })),
    }))
  const info = context.templates.find((entry) => entry.name === template)!

  const language: Language = args.js
    ? "js"
    : await ask<Language>({
        type: "select",
        message: "Language:",
        choices: [
          { title: "TypeScript", value: "ts" },
          { title: "JavaScript", value: "js" },
        ],
      })

  const toolName = pluginToolName ?? name
  const exportsProblem = (names: string[]) => exportNamesProblem(toolName, names, info.reservedExportNames)
  const exports =
    args.exports !== undefined && exportsProblem(args.exports) === undefined
      ? args.exports
      : splitList(
          await ask<string>({
            type: "text",
            message: `Named exports, comma-separated (empty: one default export, tool id ${toolName}):`,
            initial: args.exports?.join(",") ?? "",
            validate: (value: string) => (value.trim() === "" ? true : (exportsProblem(splitList(value)!) ?? true)),
          }),
        )

  const description =
    args.description !== undefined && args.description.trim() !== ""
      ? args.description
      : await ask<string>({
          type: "text",
          message: "Description (what the model reads):",
          initial: info.description,
          validate: (value: string) => (value.trim() === "" ? "Say what the tool does, for the model." : true),
        })

  const test = !args.test
    ? false
    : await ask<boolean>({
        type: "confirm",
        message: "Add a test (vitest and @opencode-ai/tool-tester)?",
        initial: true,
      })

  return { name, location, toolName: pluginToolName, template, language, exports, description, test }
}

/** Where the tool goes: --global, --plugin and --dir answer it, else the user is asked. */
async function askLocation(args: CliArguments, context: QuestionContext): Promise<ToolLocation> {
  // --global and --plugin answer this question, and so does --dir: a folder was chosen, and without
  // --plugin the tool goes in its .opencode/tools.
  return args.global
    ? "global"
    : args.plugin
      ? "plugin"
      : args.dir !== undefined
        ? "project"
        : await ask<ToolLocation>({
            type: "select",
            message: "Where should the tool go?",
            choices: [
              {
                title: "this project",
                description: `${printable(context.projectDirectory)}/.opencode/tools`,
                value: "project",
              },
              {
                title: "every project (global)",
                description: `${printable(context.globalDirectory)}/tools`,
                value: "global",
              },
              {
                title: "a plugin package to publish on npm",
                description: `${printable(context.directory)}/NAME`,
                value: "plugin",
              },
            ],
          })
}

/** A yes/no question; no by default. */
export async function confirm(message: string): Promise<boolean> {
  return ask<boolean>({ type: "confirm", message, initial: false })
}

// --- internal ---

async function ask<T>(question: Omit<PromptObject<"value">, "name">): Promise<T> {
  const { default: prompts } = await import("prompts")
  const answers = await prompts({ ...question, name: "value" } as PromptObject<"value">, {
    onCancel: () => {
      throw new CreateToolError("CANCELLED", "Operation cancelled")
    },
  })
  return answers.value as T
}

function splitList(value: string): string[] | undefined {
  if (value.trim() === "") return undefined
  return value.split(",").map((name) => name.trim())
}
