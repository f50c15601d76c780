import { readFileSync, readlinkSync, realpathSync } from "node:fs"
import { isRegularFile, lstatOf, statOf } from "./_file-stats.ts"
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path"
import { type CaseCollision, findCaseCollisions } from "./case-collisions.ts"
import { incompatibleRanges } from "./dependency-ranges.ts"
import { CreateToolError } from "./errors.ts"
import { findIdCollisions, type IdCollision } from "./id-collisions.ts"
import {
  builtinToolIds,
  defaultPluginToolName,
  exportNamesProblem,
  packageNameProblem,
  pluginExportName,
  pluginToolNameProblem,
  splitPackageName,
  toolId,
  toolNameProblem,
} from "./names.ts"
import type { Language, ScaffoldOptions, ToolLocation } from "./options.ts"
import { formatPackageJson, mergePackageJson, type PackageJson, parsePackageJson } from "./package-json.ts"
import {
  pluginPackageJson,
  projectPackageJson,
  testNodeVersions,
  yarnBerryDependenciesMeta,
  yarnClassicResolutions,
} from "./package-json-for.ts"
import { commandsFor, isYarnClassic, type PackageManagerInfo, testScriptWith } from "./package-manager.ts"
import { printable, quoted } from "./printable.ts"
import { configFolderManagerNote, configFolderPackageManager } from "./config-folder-manager.ts"
import { enclosingPnpmWorkspace, PNPM_WORKSPACE, pnpmWorkspaceNote } from "./pnpm-workspace.ts"
import { type RenderContext, type RenderedTool, renderTemplate } from "./render.ts"
import { enclosingYarnProject, YARN_LOCK, type YarnProject, yarnProjectNote } from "./yarn-project.ts"
import { findTemplatesDirectory, readFolder, readTemplate, type Template, type TemplateInfo } from "./templates.ts"
import { chooseTestScript, type TestScript } from "./test-script.ts"

// Works out every file scaffold() would write, and what is in the way, without writing anything.

/**
 * `create`: a new file. `overwrite`: the file exists and would be replaced. `update`: an existing
 * package.json gains entries. `keep`: the file exists and is left as it is (tsconfig.json, .gitignore).
 */
export type FileStatus = "create" | "overwrite" | "update" | "keep"

export type PlannedFile = { path: string; content: string; status: FileStatus }

export type ScaffoldPlan = {
  location: ToolLocation
  language: Language
  template: TemplateInfo
  /** The folder the files go in: `<dir>/.opencode`, the global config folder, or the package folder. */
  root: string
  /** The project folder (`project`), the global config folder, or the package folder (`plugin`). */
  directory: string
  /** The tool name: the tool file's name without extension (for `plugin`, the id its plugin registers). */
  toolName: string
  /** The npm package name, for `plugin`. */
  packageName: string | undefined
  /** The ids opencode will offer the model, in export order. */
  toolIds: string[]
  files: PlannedFile[]
  /** Files to be replaced: scaffold() needs `overwrite` for them. */
  existingFiles: string[]
  /**
   * Tool files already in the config folder that give one of the new ids (`weather.js` beside a new
   * `weather.ts`): scaffold() refuses them, even with `overwrite`. Always empty for `plugin`.
   */
  idCollisions: IdCollision[]
  /**
   * Files to write whose name differs only in case from a file already in their folder (`hello.ts`
   * beside `Hello.ts`): scaffold() refuses them, even with `overwrite`.
   */
  caseCollisions: CaseCollision[]
  /** Tool ids that replace a built-in tool: scaffold() needs `overrideBuiltin` for them. */
  builtinOverrides: string[]
  /** Things the user should know, one line each. */
  notes: string[]
  test: boolean
  /**
   * The package.json script that runs the generated test, which every command printed for it names:
   * `test`, or `test:tools` (`test:tools-2`, ...) beside a different test script of the user's,
   * which is kept. Undefined without a test.
   */
  testScript: string | undefined
  /**
   * The yarn 2+ project above a plugin package, when yarn 2 or later runs create-tool: the next
   * steps run from it when it is a workspace of it (yarn-project.ts). Else undefined.
   */
  yarnProject: YarnProject | undefined
}

export async function planScaffold(options: ScaffoldOptions): Promise<ScaffoldPlan> {
  const location = options.location ?? "project"
  const language = options.language ?? "ts"
  const test = options.test ?? true
  const { toolName, packageName, folderName } = checkName(options, location)
  const templatesDirectory = options.templatesDirectory ?? findTemplatesDirectory()
  const template = await readTemplate(templatesDirectory, options.template ?? "default")
  const toolSource = requiredFile(template.files, `tool.${language}`, template.name)
  if (options.exports !== undefined) {
    const problem = exportNamesProblem(toolName, options.exports, template.reservedExportNames)
    if (problem !== undefined)
      throw new CreateToolError("INVALID_EXPORT_NAME", problem, { data: { exports: options.exports } })
  }
  const description = options.description ?? template.description
  if (description.trim() === "") {
    throw new CreateToolError("INVALID_DESCRIPTION", "The description is empty: say what the tool does, for the model.")
  }
  const directory = resolveDirectory(options, location, folderName)
  const root = location === "project" ? join(directory, ".opencode") : directory
  const projectTemplate = readFolder(join(templatesDirectory, "_project"))
  const tests = test ? testScriptFor(location, projectTemplate, root) : undefined
  const testScript = tests?.name ?? "test"
  const facts: ToolFacts = { location, language, test, testScript, toolName, packageName, folderName, description }
  const ranBy = options.packageManager ?? { name: "npm", version: undefined }
  // The generated files are for the package manager of the commands the next steps give: npm's for
  // a config folder under pnpm, pnpm's for one that pnpm installed (config-folder-manager.ts).
  const packageManager = configFolderPackageManager(ranBy, location, root)
  const context = renderContext({ ...options, packageManager }, facts)

  const yarnBerry = packageManager.name === "yarn" && !isYarnClassic(packageManager)
  const yarnProject = yarnBerry && location === "plugin" ? enclosingYarnProject(root) : undefined
  const { wanted, pnpmNote } = wantedFiles({
    ...facts,
    managerFields: managerFields(packageManager, test),
    yarnBerry,
    yarnProject,
    template,
    toolSource,
    templatesDirectory,
    context,
    directory,
    root,
    projectTemplate,
  })
  const files: PlannedFile[] = []
  const existingFiles: string[] = []
  const notes: string[] = []
  for (const file of wanted) {
    const planned = fileStatus(file, { test, directory })
    files.push(planned.file)
    if (planned.file.status === "overwrite") existingFiles.push(file.path)
    notes.push(...planned.notes)
    // Not when the package.json is left as it is (a link outside the project): its note says what to add.
    if (file.path === join(root, "package.json") && planned.file.status === "update" && tests?.note !== undefined)
      notes.push(tests.note)
  }

  if (pnpmNote !== undefined) notes.push(pnpmNote)
  if (yarnProject !== undefined) notes.push(yarnProjectNote(yarnProject, root))
  const managerNote = configFolderManagerNote(ranBy, location, root)
  if (managerNote !== undefined) notes.push(managerNote)
  if (isYarnClassic(packageManager)) notes.push(yarnClassicNote(join(root, "package.json")))
  if (location === "project" && basename(directory) === ".opencode") {
    notes.push(
      `${printable(directory)} is itself a .opencode folder: opencode reads ${printable(root)} only when started in ${printable(directory)}. Use the project folder as --dir.`,
    )
  }

  const toolIds = context.tools.map((tool) => tool.id)
  // Two tools in opencode, and its repair sends a call in any other case to the lowercase id only.
  for (const id of toolIds) {
    const builtin = builtinToolIds.find((other) => other !== id && other.toLowerCase() === id.toLowerCase())
    if (builtin !== undefined)
      notes.push(
        `Tool id ${id} differs from opencode's built-in ${builtin} only in case: opencode offers both, and a model's call in any other case runs the built-in; choose another name unless that is what you mean.`,
      )
  }
  const idCollisions =
    location === "plugin"
      ? []
      : findIdCollisions(
          root,
          toolName,
          toolIds,
          files.map((file) => file.path),
        )
  return {
    location,
    language,
    template,
    root,
    directory: location === "project" ? directory : root,
    toolName,
    packageName,
    toolIds,
    files,
    existingFiles,
    idCollisions,
    caseCollisions: findCaseCollisions(
      files.filter((file) => file.status === "create" || file.status === "overwrite").map((file) => file.path),
    ),
    builtinOverrides: toolIds.filter((id) => builtinToolIds.includes(id)),
    notes,
    test,
    testScript: tests?.name,
    yarnProject,
  }
}

// --- internal ---

/**
 * The script that will run the generated test in `root`'s package.json (test-script.ts), given the
 * files of `_project`: `test` for a plugin package, whose package.json create-tool writes whole.
 */
function testScriptFor(location: ToolLocation, projectTemplate: ReadonlyMap<string, string>, root: string): TestScript {
  if (location === "plugin") return { name: "test", note: undefined }
  const template = parsePackageJson(requiredFile(projectTemplate, "package.json", "_project"), "_project/package.json")
  const command = (template["scripts"] as Record<string, string>)["test"] ?? ""
  const path = join(root, "package.json")
  return chooseTestScript(packageJsonAt(path), command, path)
}

/** The tools the file exports and the values its template's placeholders take. */
/** What the options and the disk settled about the tool, before any file is rendered. */
type ToolFacts = {
  location: ToolLocation
  language: Language
  test: boolean
  /** The package.json script that runs the test (see ScaffoldPlan). */
  testScript: string
  toolName: string
  packageName: string | undefined
  folderName: string
  description: string
}

function renderContext(options: ScaffoldOptions, tool: ToolFacts): RenderContext {
  const { location, language, test, toolName, packageName, folderName, description } = tool
  const exportNames = options.exports ?? ["default"]
  const tools: RenderedTool[] = exportNames.map((exportName) => ({
    id: toolId(toolName, exportName),
    exportName,
    description: options.exports === undefined ? description : `${description} (${exportName})`,
    scriptUrl:
      location === "plugin" ? `../python/${toolId(toolName, exportName)}.py` : `./${toolId(toolName, exportName)}.py`,
  }))
  return {
    flags: new Set<string>([location, language, test ? "test" : "no-test"]),
    tools,
    description,
    values: {
      __TOOL_NAME__: toolName,
      __PACKAGE_NAME__: packageName ?? toolName,
      __PACKAGE_FOLDER__: folderName,
      __PLUGIN_EXPORT__: pluginExportName(folderName),
      __NODE_RANGE__: testNodeVersions,
      ...packageCommands(options.packageManager, tool.testScript),
      __SNAPSHOT_UPDATE__: testCommandLine(location, options.packageManager, tool.testScript, "-u"),
      __SNAPSHOT_WATCH__: testCommandLine(location, options.packageManager, tool.testScript, "--watch"),
    },
  }
}

/**
 * A file the template gives, before looking at the disk. `create`: written (over what is there,
 * with `overwrite`); `merge`: an existing package.json gains entries; `keep`: an existing one stays.
 */
type WantedFile = { path: string; content: string; mode: "create" | "merge" | "keep" }

type WantedFilesInput = ToolFacts & {
  /** package.json's fields for the package manager that runs create-tool (managerFields), if any. */
  managerFields: PackageJson | undefined
  /** yarn 2 or later runs create-tool: a config folder gets an empty yarn.lock (addProjectFiles). */
  yarnBerry: boolean
  /** The yarn 2+ project above a plugin package (yarn-project.ts): outside its workspaces, the package gets an empty yarn.lock. */
  yarnProject: YarnProject | undefined
  template: Template
  /** The template's `tool.ts` or `tool.js`. */
  toolSource: string
  templatesDirectory: string
  context: RenderContext
  directory: string
  root: string
  /** The files of `_project`, the template of a config folder's own files. */
  projectTemplate: ReadonlyMap<string, string>
}

/** Every file the template gives for this tool, rendered, and the note on an enclosing pnpm workspace. */
function wantedFiles(input: WantedFilesInput): { wanted: WantedFile[]; pnpmNote: string | undefined } {
  const { template, toolSource, context, location, language, test, toolName, root } = input
  const wanted: WantedFile[] = []
  const add = (path: string, content: string, mode: WantedFile["mode"] = "create") =>
    wanted.push({ path: join(root, path), content, mode })
  const ext = language
  const codeFolder = location === "plugin" ? "src" : "tools"
  const scriptFolder = location === "plugin" ? "python" : "tools"

  add(`${codeFolder}/${toolName}.${ext}`, renderTemplate(toolSource, context))
  const script = template.files.get("tool.py")
  if (script !== undefined) for (const tool of context.tools) add(`${scriptFolder}/${tool.id}.py`, script)
  if (test) {
    add(
      `test/${toolName}.test.${ext}`,
      renderTemplate(requiredFile(template.files, `tool.test.${ext}`, template.name), context),
    )
  }
  if (location === "plugin") return { wanted, pnpmNote: addPluginFiles(input, add) }
  addProjectFiles(input, add)
  return { wanted, pnpmNote: undefined }
}

/** A plugin package's own files (`_plugin`); the note when it lands inside a pnpm workspace. */
function addPluginFiles(
  input: WantedFilesInput,
  add: (path: string, content: string, mode?: WantedFile["mode"]) => void,
): string | undefined {
  const { template, templatesDirectory, context, language, test, toolName, packageName, description } = input
  const plugin = readFolder(join(templatesDirectory, "_plugin"))
  const packageJson = pluginPackageJson(
    parsePackageJson(requiredFile(plugin, "package.json", "_plugin"), "_plugin/package.json"),
    {
      packageName: packageName ?? toolName,
      description,
      language,
      test,
      scripts: template.files.has("tool.py"),
      managerFields: input.managerFields,
    },
  )
  add(`src/index.${language}`, renderTemplate(requiredFile(plugin, `index.${language}`, "_plugin"), context))
  add("package.json", formatPackageJson(packageJson))
  add("README.md", renderTemplate(requiredFile(plugin, "README.md", "_plugin"), context))
  add(".gitignore", requiredFile(plugin, "_gitignore", "_plugin"))
  if (language === "ts") {
    add("tsconfig.json", requiredFile(plugin, "tsconfig.json", "_plugin"))
    add("tsconfig.build.json", requiredFile(plugin, "tsconfig.build.json", "_plugin"))
  }
  // Not a workspace of the yarn project above it: yarn would refuse it (yarn-project.ts).
  if (input.yarnProject !== undefined && !input.yarnProject.workspace) add(YARN_LOCK, "", "keep")
  const workspace = enclosingPnpmWorkspace(input.directory)
  if (workspace !== undefined) return pnpmWorkspaceNote(workspace, language, input.root)
  add(PNPM_WORKSPACE, requiredFile(plugin, PNPM_WORKSPACE, "_plugin"))
  return undefined
}

/** A config folder's own files (`_project`): merged into, or kept, when they exist. */
function addProjectFiles(
  input: WantedFilesInput,
  add: (path: string, content: string, mode: WantedFile["mode"]) => void,
): void {
  const { projectTemplate: project, context, language, test, testScript } = input
  const additions = projectPackageJson(
    parsePackageJson(requiredFile(project, "package.json", "_project"), "_project/package.json"),
    { language, test, testScript, managerFields: input.managerFields },
  )
  add("package.json", formatPackageJson(additions), "merge")
  if (language === "ts") add("tsconfig.json", requiredFile(project, "tsconfig.json", "_project"), "keep")
  add(".gitignore", requiredFile(project, "_gitignore", "_project"), "keep")
  // A config folder is a workspace of its own for pnpm, as for opencode (which installs it with Bun).
  add(PNPM_WORKSPACE, requiredFile(project, PNPM_WORKSPACE, "_project"), "keep")
  // yarn 2+ takes the nearest folder above with a yarn.lock for the project: inside a yarn project,
  // `yarn --cwd .opencode install` stopped ("doesn't seem to be part of the project declared in")
  // and `config set nodeLinker` wrote the project's .yarnrc.yml. An empty yarn.lock makes the
  // config folder a project of its own, as yarn's message advises.
  if (input.yarnBerry) add(YARN_LOCK, "", "keep")
  if (test) {
    const config = renderTemplate(requiredFile(project, "vitest.config.js", "_project"), context)
    add(vitestConfigName(input.root), config, "keep")
  }
}

/** The commands a plugin package's README gives, in its folder, for the package manager that ran create-tool. */
function packageCommands(
  packageManager: ScaffoldOptions["packageManager"],
  testScript: string,
): Record<string, string> {
  const commands = commandsFor(packageManager ?? { name: "npm", version: undefined }, testScript)
  return { __INSTALL__: commands.install, __TEST__: commands.test, __RUN__: commands.run }
}

/**
 * What package.json needs for the package manager that runs create-tool: yarn 1's `resolutions`
 * (yarnClassicResolutions), yarn 2+'s `dependenciesMeta` (yarnBerryDependenciesMeta); nothing for others.
 */
function managerFields(packageManager: PackageManagerInfo, test: boolean): PackageJson | undefined {
  if (isYarnClassic(packageManager)) return { resolutions: { ...yarnClassicResolutions } }
  if (packageManager.name === "yarn") return { dependenciesMeta: yarnBerryDependenciesMeta(test) }
  return undefined
}

/** Why a package.json written for yarn 1 has `resolutions` (yarnClassicResolutions). */
function yarnClassicNote(file: string): string {
  const pins = Object.entries(yarnClassicResolutions)
    .map(([name, range]) => `${name} ${range}`)
    .join(", ")
  return `yarn 1 refuses ini 7, which @opencode-ai/plugin brings, on Node 20 (its engines): ${printable(file)} pins ${pins} in "resolutions", which npm ignores.`
}

/** The names vitest looks for its config under, in its order: the first there is the one it loads. */
const VITEST_CONFIGS = ["ts", "mts", "cts", "js", "mjs", "cjs"].map((extension) => `vitest.config.${extension}`)

/**
 * The name of the watch config: `vitest.config.js`, unless the folder's package.json stays CommonJS
 * (its "type" is kept), where vitest would load that ESM file with require() and fail on
 * tool-tester's ESM-only entry: `.mjs` is ESM in any package. One already there, of any of vitest's
 * names, is kept (a second would not be loaded).
 */
function vitestConfigName(root: string): string {
  const existing = VITEST_CONFIGS.find((name) => isRegularFile(join(root, name)))
  if (existing !== undefined) return existing
  const packageJson = packageJsonAt(join(root, "package.json"))
  if (packageJson === undefined) return "vitest.config.js"
  const type = packageJson["type"]
  return type === undefined || type === "module" ? "vitest.config.js" : "vitest.config.mjs"
}

/**
 * The package.json at `path`, parsed; undefined when there is none or it is not valid JSON (the
 * merge says so). Read only when it is a file: never a pipe, whose read would wait for a writer.
 */
function packageJsonAt(path: string): PackageJson | undefined {
  const text = isRegularFile(path) ? readExisting(path) : undefined
  if (text === undefined) return undefined
  try {
    return parsePackageJson(text, path)
  } catch {
    return undefined
  }
}

/** What becomes of one wanted file given what is on disk, and the notes the user should read about it. */
function fileStatus(
  file: WantedFile,
  plan: { test: boolean; directory: string },
): { file: PlannedFile; notes: string[] } {
  const folderLink = danglingFolderLink(file.path)
  if (folderLink !== undefined) {
    // mkdir would fail on it (EEXIST), and nothing but the user can say what it should lead to.
    throw new CreateToolError(
      "FILE_EXISTS",
      `${printable(folderLink.path)} is a link to ${printable(folderLink.target)}, which does not exist, where a folder must go: delete the link or create its target folder, and run again.`,
      { data: { paths: [folderLink.path], target: folderLink.target } },
    )
  }
  const link = symlinkAt(file.path)
  if (link?.dangling) {
    // Writing through it would create a file wherever the link points; replacing it would delete it.
    throw new CreateToolError(
      "FILE_EXISTS",
      `${printable(file.path)} is a link to ${printable(link.target)}, which does not exist: delete the link or create its target, and run again (--force does not replace a link).`,
      { data: { paths: [file.path], target: link.target } },
    )
  }
  const notAFile = notAFileError(file, link)
  if (notAFile !== undefined) throw notAFile
  const existing = readExisting(file.path)
  if (existing === undefined) return { file: { path: file.path, content: file.content, status: "create" }, notes: [] }
  if (file.mode === "create") {
    if (link !== undefined && isOutside(link.target, plan.directory)) {
      // Replacing it would write through the link, into a file of something else's.
      throw new CreateToolError(
        "FILE_EXISTS",
        `${printable(file.path)} is a link to ${printable(link.target)}, outside ${printable(plan.directory)}: choose another name, or remove the link, and run again (--force does not write outside the folder).`,
        { data: { paths: [file.path], target: link.target } },
      )
    }
    return { file: { path: file.path, content: file.content, status: "overwrite" }, notes: [] }
  }
  const kept: PlannedFile = { path: file.path, content: existing, status: "keep" }
  if (file.mode === "keep") {
    const ignoresPackageJson = plan.test && file.path.endsWith(".gitignore") && /^\/?package\.json$/m.test(existing)
    // A config of the user's without the watch plugin: a save of a tool would not re-run the tests.
    const watchesNoTools = VITEST_CONFIGS.includes(basename(file.path)) && !existing.includes("toolTester")
    return {
      file: kept,
      notes: [
        ...(ignoresPackageJson
          ? [
              `${printable(file.path)} ignores package.json (opencode writes it so): remove that line to commit the test's dependencies.`,
            ]
          : []),
        ...(watchesNoTools
          ? [
              `${printable(file.path)}: kept as it is; add toolTester() from "@opencode-ai/tool-tester/vitest" to its plugins, so that vitest's watch mode re-runs the tests when a tool file is saved.`,
            ]
          : []),
      ],
    }
  }
  const merged = mergePackageJson(parsePackageJson(existing, file.path), parsePackageJson(file.content, file.path))
  const content = formatPackageJson(merged.packageJson, existing)
  if (link !== undefined && content !== existing && isOutside(link.target, plan.directory)) {
    // A package.json shared with something outside the project is not ours to change.
    return {
      file: kept,
      notes: [
        `${printable(file.path)} is a link to ${printable(link.target)}, outside ${printable(plan.directory)}: left as it is; add what opencode needs to it yourself (${addedEntries(existing, merged.packageJson).join(", ")}).`,
      ],
    }
  }
  // A different version of a dependency is the user's (or opencode's) choice: not worth a note,
  // unless it allows no version the generated files need.
  const incompatible = incompatibleRanges(
    merged.kept,
    parsePackageJson(existing, file.path),
    parsePackageJson(file.content, file.path),
  ).map(
    ({ entry, theirs, ours }) =>
      `${printable(file.path)}: kept your ${quoted(entry)} ${quoted(theirs)}, which allows no version the generated files need (${quoted(ours)}): the install will fail or the test not run; change it to ${quoted(ours)}.`,
  )
  return {
    file: { path: file.path, content, status: content === existing ? "keep" : "update" },
    notes: [
      ...merged.kept
        .filter((entry) => !/^(dev)?[dD]ependencies\./.test(entry))
        .map((entry) => `${printable(file.path)}: kept your ${quoted(entry)} as it is.`),
      ...incompatible,
    ],
  }
}

/**
 * The FILE_EXISTS error when a folder (or a pipe, a device, a socket) is where `file` goes, else
 * undefined. --force replaces files only, and a package.json or tsconfig.json there cannot be read,
 * so this is said before anything else is: what is there, and to move it away.
 */
function notAFileError(file: WantedFile, link: { target: string } | undefined): CreateToolError | undefined {
  let what: string
  try {
    const stats = statOf(file.path)
    if (stats.isFile()) return undefined
    what = stats.isDirectory() ? "a folder" : "not a file (a pipe, a device or a socket)"
  } catch {
    // Missing, or unreachable (a file in the way, no permission): the writer reports what it cannot write.
    return undefined
  }
  const shown =
    link === undefined ? printable(file.path) : `${printable(file.path)} (a link to ${printable(link.target)})`
  // Another NAME gives the tool, its test or a plugin package other paths; a project's own files keep theirs.
  const fix = file.mode === "create" ? "move it away or choose another name" : "move it away"
  return new CreateToolError(
    "FILE_EXISTS",
    `${shown} is ${what}, where create-tool writes a file: ${fix}, and run again (--force replaces files only).`,
    { data: { paths: [file.path] } },
  )
}

function checkName(
  options: ScaffoldOptions,
  location: ToolLocation,
): { toolName: string; packageName: string | undefined; folderName: string } {
  const { name } = options
  if (location === "plugin") {
    const problem = packageNameProblem(name, { toolNameGiven: options.toolName !== undefined })
    if (problem !== undefined) throw new CreateToolError("INVALID_PACKAGE_NAME", problem, { data: { name } })
    const toolName = options.toolName ?? defaultPluginToolName(name)
    const toolProblem = pluginToolNameProblem(toolName)
    if (toolProblem !== undefined) {
      // Without --tool-name the id comes from NAME (`index`), and the message must not blame the option.
      const message = options.toolName === undefined ? toolProblem : `--tool-name: ${toolProblem}`
      throw new CreateToolError("INVALID_NAME", message, { data: { toolName } })
    }
    return { toolName, packageName: name, folderName: splitPackageName(name).name }
  }
  if (options.toolName !== undefined) {
    throw new CreateToolError(
      "CONFLICTING_OPTIONS",
      "--tool-name goes with --plugin only: without it, NAME is the tool name.",
    )
  }
  const problem = toolNameProblem(name)
  if (problem !== undefined) throw new CreateToolError("INVALID_NAME", problem, { data: { name } })
  return { toolName: name, packageName: undefined, folderName: name }
}

function resolveDirectory(options: ScaffoldOptions, location: ToolLocation, folderName: string): string {
  const directory = location === "global" ? options.globalDirectory : options.directory
  const option = location === "global" ? "globalDirectory" : "directory"
  if (directory === undefined || !isAbsolute(directory)) {
    throw new CreateToolError("USAGE", `scaffold() needs an absolute ${option} for location "${location}".`)
  }
  return location === "plugin" ? join(directory, folderName) : directory
}

function requiredFile(files: ReadonlyMap<string, string>, name: string, folder: string): string {
  const content = files.get(name)
  if (content === undefined) {
    throw new CreateToolError("TEMPLATES_NOT_FOUND", `Template "${folder}" has no ${name}: reinstall create-tool.`)
  }
  return content
}

/** When `path` is a symbolic link: where it leads (resolved), and whether that exists. */
function symlinkAt(path: string): { target: string; dangling: boolean } | undefined {
  try {
    if (!lstatOf(path).isSymbolicLink()) return undefined
  } catch {
    return undefined
  }
  try {
    return { target: realpathSync(path), dangling: false }
  } catch {
    let target = path
    try {
      target = resolve(join(path, ".."), readlinkSync(path))
    } catch {}
    return { target, dangling: true }
  }
}

/**
 * A link that leads nowhere where one of the folders above `file` must be (`.opencode ->
 * ../gone`, a dangling `tools` or plugin folder), or undefined. Looked for from the file's folder up
 * to the first that is there: the folders below it are the ones to make.
 */
function danglingFolderLink(file: string): { path: string; target: string } | undefined {
  for (let folder = dirname(file); dirname(folder) !== folder; folder = dirname(folder)) {
    try {
      lstatOf(folder)
    } catch {
      continue
    }
    const link = symlinkAt(folder)
    return link?.dangling ? { path: folder, target: link.target } : undefined
  }
  return undefined
}

/** Whether `file` (a real path) lies outside `folder`. */
function isOutside(file: string, folder: string): boolean {
  let real = folder
  try {
    real = realpathSync(folder)
  } catch {}
  const path = relative(real, file)
  return path === "" || path.startsWith("..") || isAbsolute(path)
}

/** The entries `merged` has that the package.json text `existing` lacks, as `devDependencies.vitest`. */
function addedEntries(existing: string, merged: Record<string, unknown>): string[] {
  const before = parsePackageJson(existing, "package.json") as Record<string, unknown>
  const added: string[] = []
  for (const [key, value] of Object.entries(merged)) {
    const current = before[key]
    if (current === undefined) added.push(key)
    else if (typeof value === "object" && value !== null && typeof current === "object" && current !== null) {
      for (const entry of Object.keys(value)) if (!(entry in current)) added.push(`${key}.${entry}`)
    }
  }
  return added
}

/** The file's content, undefined when there is nothing there to read (anything but a file is refused first). */
function readExisting(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8")
  } catch {
    // Missing, or unreachable (a file in the way, no permission): the writer reports what it cannot write.
    return undefined
  }
}

/**
 * The commands the generated files name to rewrite the snapshots (`-u`) and to watch (`--watch`):
 * the package's script `script` that runs the test with a vitest flag, for the package manager of
 * the next steps, from where they run it. npx of a bare `vitest` from the project folder would
 * download another vitest, which does not know the matchers and deletes the snapshot file.
 */
function testCommandLine(
  location: ToolLocation,
  packageManager: ScaffoldOptions["packageManager"],
  script: string,
  flag: "-u" | "--watch",
): string {
  const folder = location === "project" ? ".opencode" : undefined
  const command = testScriptWith(packageManager ?? { name: "npm", version: undefined }, folder, script, flag)
  return location === "project"
    ? `\`${command}\`, run from the project folder,`
    : `\`${command}\`, run in the folder of package.json,`
}
