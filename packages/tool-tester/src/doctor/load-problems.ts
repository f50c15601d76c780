import { existsSync } from "node:fs"
import path from "node:path"
import { portablePath, shellWord } from "../_shell-quote.ts"
import { symlinkLoop } from "../discovery/scan.ts"
import { addDependencyCommand } from "../package-manager.ts"
import type { Diagnostic, ToolProject } from "../types.ts"
import { displayPath, withoutFilePrefix } from "./_paths.ts"
import { bunApiHint } from "./bun-api.ts"
import type { PathAlias } from "../discovery/path-alias.ts"
import type { Finding } from "./finding.ts"

/**
 * Findings for what went wrong while loading: files that failed to import (with the install
 * command for a missing package, run in the config folder that holds the file, where opencode
 * resolves it from), plugins that were rejected, and exports that look like tools but are skipped.
 */
export function loadProblems(project: ToolProject, options: { cwd: string }): Finding[] {
  return project.diagnostics.flatMap((diagnostic) => {
    const finding = findingOf(project, diagnostic, options.cwd)
    return finding ? [finding] : []
  })
}

/**
 * How to make a package a tool or plugin file imports available: installed in the config folder
 * holding the file, or in the package folder of a plugin loaded from a path (where package.json is,
 * not the `dist` folder of its entry), with the package manager that installed that folder. `--prefix`
 * (`--dir`, `--cwd`), not `cd`: in a folder without its own package.json
 * npm would install into the nearest one above it (the project's). A plugin installed from npm
 * (under node_modules) gets only its `dependencies`: the fix is in its package.json.
 */
export function installCommand(project: ToolProject, file: string, packageName: string, cwd: string): string {
  const configFolder = project.configDirectories
    .map((entry) => entry.path)
    .filter((candidate) => file.startsWith(candidate + path.sep))
    .sort((left, right) => right.length - left.length)[0]
  const folder = configFolder ?? packageFolder(path.dirname(file))
  if (configFolder === undefined && folder.split(/[\\/]/).includes("node_modules")) {
    return `add ${packageName} to "dependencies" in ${path.join(folder, "package.json")} (its users get its dependencies, never its devDependencies)`
  }
  const where = displayPath(cwd, folder)
  return addDependencyCommand(folder, where === "." ? undefined : shellWord(portablePath(where)), packageName)
}

// --- internal ---

function findingOf(project: ToolProject, diagnostic: Diagnostic, cwd: string): Finding | undefined {
  const file = diagnostic.file ?? null
  const message = withoutFilePrefix(diagnostic.message, diagnostic.file)
  switch (diagnostic.code) {
    case "IMPORT_FAILED": {
      const missing = diagnostic.data?.["missingPackage"]
      const alias = diagnostic.data?.["pathAlias"] as PathAlias | undefined
      // `bun` and `bun:*` are Bun's own modules: nothing to install, the node engine lacks them.
      const bunHint = project.engine.name === "node" ? bunApiHint(diagnostic.message) : undefined
      const loop = file === null ? undefined : symlinkLoop(file)
      // Only a tool file takes the whole tool list down; a plugin that fails is left out alone.
      const toolFile = project.files.some((entry) => entry.file === file)
      if (diagnostic.data?.["needsBunEngine"] === true)
        return { code: "IMPORT_FAILED", severity: "warning", file, message }
      const advice = bunHint
        ? `; ${bunHint}`
        : loop
          ? `; it is a symbolic link loop (${loop}), which nothing can import, opencode included, and opencode then offers no tool at all: point the link at a real file, or delete it`
          : alias !== undefined
            ? `; ${aliasAdvice(alias)}`
            : typeof missing === "string" && file !== null
              ? `; ${installAdvice(installCommand(project, file, missing, cwd))}`
              : toolFile
                ? "; opencode fails its whole tool list when one file does not import: fix the file"
                : "; opencode logs it and goes on without this plugin (its tools and hooks are missing): fix the file"
      return { code: "IMPORT_FAILED", severity: "error", file, message: message + advice }
    }
    case "PLUGIN_LOAD_FAILED":
      return { code: "PLUGIN_LOAD_FAILED", severity: "error", file, message: `${message}; its tools will be missing` }
    case "PLUGIN_INIT_HANGS":
      return { code: "PLUGIN_INIT_HANGS", severity: "error", file, message }
    case "TOOL_TAMPERED":
      return { code: "TOOL_TAMPERED", severity: "error", file, message, data: diagnostic.data ?? {} }
    case "OPENCODE_2":
    case "CONFIG_INVALID":
      return { code: diagnostic.code, severity: diagnostic.severity, file, message }
    case "IGNORED_EXPORT":
    case "NO_TOOLS":
      return { code: diagnostic.code, severity: "warning", file, message }
    default:
      return undefined
  }
}

/** The nearest folder with a package.json from `folder` up (a plugin's entry is often in its `dist`), else `folder`. */
function packageFolder(folder: string): string {
  for (let current = folder; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, "package.json"))) return current
    if (path.dirname(current) === current) return folder
  }
}

function aliasAdvice(alias: PathAlias): string {
  const where =
    alias.mappedBy === undefined ? "and none maps it" : `and ${alias.mappedBy} maps it, yet the file was not found`
  return `${alias.specifier} is a path alias, not a package: opencode (Bun) resolves it only through "compilerOptions": { "paths": { ... } } in a tsconfig.json in the file's folder or above, ${where}: map it there (such as "@/*": ["./src/*"]), or import the file by a relative path`
}

function installAdvice(command: string): string {
  return command.startsWith("npm ") ? `install it: ${command}` : command
}
