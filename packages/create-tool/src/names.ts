import { npmPackageNameProblem } from "./npm-package-name.ts"
import { hiddenCharacter, printable, quoted } from "./printable.ts"

// What a name must be for opencode to offer the tool and for model providers to accept it. Each
// check returns the problem as a one-line message, or undefined when the name is fine, so the CLI
// can show it under a question and scaffold() can throw it.

/**
 * The tools opencode 1.18 registers itself (some only behind flags). A custom tool with one of these
 * ids replaces the built-in completely: the last definition of an id wins.
 */
export const builtinToolIds: readonly string[] = [
  "apply_patch",
  "bash",
  "edit",
  "execute",
  "glob",
  "grep",
  "invalid",
  "lsp",
  "plan_exit",
  "question",
  "read",
  "skill",
  "task",
  "todowrite",
  "webfetch",
  "websearch",
  "write",
]

/** Longest tool id OpenAI, Anthropic and Gemini all accept. */
const maximumToolIdLength = 64

/**
 * Problem with a tool name (the file name opencode turns into the tool id), or undefined.
 * Allowed: a letter or `_`, then letters, digits, `_` and `-`, at most 64 characters: the characters
 * every major provider accepts in a function name (OpenAI rejects dots, Gemini a leading digit).
 */
export function toolNameProblem(name: string): string | undefined {
  if (name.trim() === "") return "The tool name is empty: give one, such as my-tool."
  const hidden = hiddenCharacterProblem(name, "letters, digits, _ and -")
  if (hidden !== undefined) return hidden
  if (isPath(name)) {
    return `${quoted(name)} is a path: give a plain name such as my-tool, and the folder with --dir.`
  }
  const badCharacter = [...name].find((character) => !/[A-Za-z0-9_-]/.test(character))
  if (badCharacter !== undefined) {
    return `${quoted(name)} contains ${quoted(badCharacter)}: use only letters, digits, _ and - (model providers reject other characters in tool names).`
  }
  if (!/^[A-Za-z_]/.test(name)) {
    return `${quoted(name)} must start with a letter or _ (Gemini rejects tool names that start with a digit or -).`
  }
  if (name.length > maximumToolIdLength) {
    return `${quoted(name)} is ${name.length} characters long: model providers accept at most ${maximumToolIdLength}.`
  }
  if (windowsReservedNames.test(name)) {
    return `${quoted(name)} is a reserved file name on Windows: choose another name.`
  }
  return undefined
}

/**
 * Problem with a plugin's tool name, or undefined: a tool name's rules, and not `index`, whatever
 * its case. The tools go in `src/<tool name>.ts`, and `src/index.ts` is the plugin's entry module,
 * which may export the plugin function alone (opencode calls every export of it); `Index` is the
 * same file on macOS and Windows.
 */
export function pluginToolNameProblem(name: string): string | undefined {
  const problem = toolNameProblem(name)
  if (problem !== undefined) return problem
  if (name.toLowerCase() === "index") {
    return `Tool id ${quoted(name)} would name the tools' module src/${name}.ts (.js with --js), which is the plugin's entry module: choose another tool id with --tool-name, such as --tool-name my-tool.`
  }
  return undefined
}

/**
 * Problem with a list of named exports, or undefined. `reserved` holds the identifiers the
 * template declares at the top of the tool file (an export with one of those names would clash).
 */
export function exportNamesProblem(
  toolName: string,
  exportNames: readonly string[],
  reserved: readonly string[] = [],
): string | undefined {
  if (exportNames.length === 0) return "--exports is empty: give names such as add,multiply."
  const seen = new Set<string>()
  for (const exportName of exportNames) {
    if (exportName === "") return "--exports has an empty name: write names separated by commas, such as add,multiply."
    const hidden = hiddenCharacterProblem(exportName, "letters, digits and _", "Export name ")
    if (hidden !== undefined) return hidden
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(exportName)) {
      return `Export name ${quoted(exportName)} must be a JavaScript identifier made of letters, digits and _ (it becomes part of the tool id).`
    }
    if (exportName === "default")
      return `Export name "default" is the default export: leave --exports out for one default export.`
    if (javascriptReservedWords.has(exportName)) {
      return `Export name ${quoted(exportName)} is a reserved word in JavaScript: choose another name.`
    }
    if (reserved.includes(exportName)) {
      return `Export name ${quoted(exportName)} clashes with a name the template uses: choose another name.`
    }
    if (seen.has(exportName)) return `Export name ${quoted(exportName)} is given twice.`
    const sameLetters = [...seen].find((other) => other.toLowerCase() === exportName.toLowerCase())
    if (sameLetters !== undefined) {
      return `Export names ${quoted(sameLetters)} and ${quoted(exportName)} differ only in case: so would their tool ids and, in templates with a file per tool, their files, which macOS and Windows take for one. Choose names that differ in more than case.`
    }
    seen.add(exportName)
    const id = toolId(toolName, exportName)
    if (id.length > maximumToolIdLength) {
      return `Tool id ${quoted(id)} is ${id.length} characters long: model providers accept at most ${maximumToolIdLength}.`
    }
  }
  return undefined
}

/**
 * Problem with the npm package name of a --plugin package, or undefined: npm's rules for a new
 * package (see npm-package-name.ts), a lowercase scope, and a last part that can name the package
 * folder and the tool.
 */
export function packageNameProblem(packageName: string, options: { toolNameGiven?: boolean } = {}): string | undefined {
  if (packageName.trim() === "") return "The package name is empty: give one, such as opencode-my-tool."
  const hidden = hiddenCharacterProblem(packageName, "lowercase letters, digits, -, . and _")
  if (hidden !== undefined) return hidden
  const { scope, name } = splitPackageName(packageName)
  if (isPath(name)) return toolNameProblem(name)
  if (packageName.startsWith("@") && (scope === undefined || name === "")) {
    const scopeOnly = packageName.replace(/\/$/, "")
    return `${quoted(packageName)} is a scope without a name: write ${printable(scopeOnly)}/NAME, such as ${printable(scopeOnly)}/opencode-my-tool.`
  }
  if (scope !== undefined && !/^[a-z0-9][a-z0-9._-]*$/.test(scope)) {
    return `${quoted(packageName)} has an invalid scope: npm scopes are lowercase letters, digits, -, . and _.`
  }
  const npmProblem = npmPackageNameProblem(packageName)
  if (npmProblem !== undefined) return npmProblem
  if (name === "node_modules") {
    return `${quoted(packageName)} would go in a node_modules folder, which package managers own: choose another name.`
  }
  // With --tool-name the name is only the package's (and its folder's): npm's rules, and a folder
  // Windows can make. Without it, the tool id comes from it, and a tool name's rules apply.
  if (options.toolNameGiven) {
    // Windows reserves CON with any extension (con.x) too, and drops a name's final dot (foo. is foo).
    if (windowsReservedNames.test(name.split(".")[0]!))
      return `${quoted(name)} is a reserved file name on Windows, where its folder could not be made: choose another name.`
    if (name.endsWith("."))
      return `${quoted(name)} ends with a dot, which Windows drops from a folder's name (its folder would be ${printable(name.replace(/\.+$/, ""))}): choose another name.`
    return undefined
  }
  return toolNameProblem(name)
}

/** The id opencode gives an export of `<toolName>.ts`: the file name, or `<file>_<export>`. */
export function toolId(toolName: string, exportName: string): string {
  return exportName === "default" ? toolName : `${toolName}_${exportName}`
}

/**
 * The tool id a plugin package registers when --tool-name is not given: the package name without
 * its scope and without an `opencode-` prefix (`@me/opencode-weather` -> `weather`), since the model
 * sees the id next to opencode's own tools and the prefix tells it nothing. When what is left is not a
 * valid plugin tool name (`opencode-index`), or is a built-in tool's id (`opencode-read`), the last
 * part of the name as it is.
 */
export function defaultPluginToolName(packageName: string): string {
  const { name } = splitPackageName(packageName)
  const stripped = name.replace(/^opencode-/, "")
  if (stripped === name || pluginToolNameProblem(stripped) !== undefined || builtinToolIds.includes(stripped))
    return name
  return stripped
}

/** `@scope/name` -> { scope: "scope", name: "name" }; `name` -> { name: "name" }. */
export function splitPackageName(packageName: string): { scope?: string; name: string } {
  const match = /^@([^/]*)\/(.*)$/.exec(packageName)
  if (match === null) return { name: packageName }
  return { scope: match[1]!, name: match[2]! }
}

/**
 * The name a plugin package's entry module exports its plugin under: the package folder's name in
 * PascalCase, then `Plugin` (`my-weather_tool` -> `MyWeatherToolPlugin`). npm allows names that are
 * no JavaScript identifier (`weather.js`, `2fa`), so every character other than a letter or digit
 * separates words (`WeatherJsPlugin`), and a name that starts with a digit gets a leading `_`
 * (`_2faPlugin`), which keeps the digits the user chose where they read them. The `Plugin` ending
 * keeps it clear of reserved words.
 */
export function pluginExportName(folderName: string): string {
  const words = folderName
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("")
  const name = words === "" ? "Tool" : words
  return `${/^[0-9]/.test(name) ? "_" : ""}${name}Plugin`
}

// --- internal ---

/** A name with a character that does not show (see printable.ts): refused, the character shown escaped. */
function hiddenCharacterProblem(value: string, allowed: string, prefix = ""): string | undefined {
  const character = hiddenCharacter(value)
  if (character === undefined) return undefined
  return `${prefix}${quoted(value)} contains ${printable(character)}, a character that does not show (invisible, a control or a bidirectional one, often pasted by accident): type it again with ${allowed} only.`
}

function isPath(name: string): boolean {
  return name.includes("/") || name.includes("\\") || name === "." || name === ".."
}

const windowsReservedNames = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i

const javascriptReservedWords = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if implements import in instanceof interface let new null package private protected " +
    "public return static super switch this throw true try typeof var void while with yield arguments eval"
  ).split(" "),
)
