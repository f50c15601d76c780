// The options of scaffold(), shared by the planner, the writer and the CLI.

import type { PackageManagerInfo } from "./package-manager.ts"

/** Where the tool goes: a project's `.opencode/tools/`, the global config's `tools/`, or a plugin package. */
export type ToolLocation = "project" | "global" | "plugin"

export type Language = "ts" | "js"

export type ScaffoldOptions = {
  /**
   * The tool name: the tool file's name and the default export's tool id. With `location: "plugin"`,
   * the npm package name (`my-tool` or `@me/my-tool`), whose last part names the folder and the tool.
   */
  name: string
  /**
   * With `location: "plugin"` only: the tool id the plugin registers (and the tool module's name).
   * Default: the package name without scope and `opencode-` prefix (see defaultPluginToolName()).
   */
  toolName?: string
  /** Default `"project"`. */
  location?: ToolLocation
  /**
   * Absolute path. `project`: the project folder, which gets `.opencode/` (required).
   * `plugin`: the folder the package folder is created in (required). Unused for `global`.
   */
  directory?: string
  /** Absolute path of opencode's global config folder, required for `global` (see globalConfigDirectory()). */
  globalDirectory?: string
  /** Template folder name; default `"default"`. */
  template?: string
  /** Default `"ts"`. */
  language?: Language
  /** Named exports (tool ids `NAME_export`) instead of one default export (tool id `NAME`). */
  exports?: readonly string[]
  /** The tool description the model reads; default: the template's. */
  description?: string
  /** Write a test using @opencode-ai/tool-tester, and what it needs in package.json. Default true. */
  test?: boolean
  /** Replace files that exist. Default false: FILE_EXISTS. */
  overwrite?: boolean
  /** Allow tool ids that replace opencode's built-in tools. Default false: BUILTIN_OVERRIDE. */
  overrideBuiltin?: boolean
  /** Where the templates are; default: the ones shipped with create-tool. */
  templatesDirectory?: string
  /**
   * The package manager whose commands the generated files name (the snapshot update in the test,
   * the watch command in vitest.config.js), as the next steps do: the one that ran create-tool
   * (packageManagerFromUserAgent()), but npm's for a config folder under pnpm, and pnpm's for one
   * that pnpm installed (configFolderPackageManager()). Default npm.
   */
  packageManager?: PackageManagerInfo
}
