// The world one `tool-tester eval` runs opencode in. The user's own opencode as configured for the
// project, with three things made throw-away so an eval changes nothing of theirs:
//
// - the project: a copy (as e2e makes it, src/opencode/sandbox.ts), whose tool files are replaced by
//   wrappers (module-sources.ts) so a call is answered by the runner, not run;
// - the global config folder (`$XDG_CONFIG_HOME/opencode`): always copied into a throw-away config
//   home (its `node_modules` linked), so its tool files are wrapped too and opencode's plugin
//   install check never writes into the user's folder. `OPENCODE_CONFIG_DIR`, when set, is copied
//   and wrapped the same way;
// - the data home: a throw-away one holding a copy of the user's `opencode/auth.json` and
//   `mcp-auth.json` (their keys and logins) and a link to opencode's `bin` folder (the ripgrep it
//   downloaded once), so eval sessions never land in the user's session list.
//
// The cache home (provider packages, the models list) and the environment (API keys) stay the
// user's. Tools from elsewhere (`~/.opencode`, plugins' `tool` hooks, MCP servers) are not wrapped:
// the guard plugin refuses their calls unless the case's `execute` names them (run-eval.ts), and
// so for an id that one of them also defines (`unwrappedIds`): the call could reach it instead.
//
// What each tool file exports is read in an engine's process (project-tools.ts), never here: the
// eval imports no user code of its own. Copies are materialised (no link leads out of them) and
// every file written into them is checked to stay inside (opencode/copy-folder.ts).

import { existsSync } from "node:fs"
import { copyFile, mkdir, symlink, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { globalConfigDirectory } from "../../discovery/config-dirs.ts"
import { SCANNED_EXTENSIONS, scanFolder, TOOL_FOLDERS } from "../../discovery/scan.ts"
import { assertInside } from "../../opencode/copy-folder.ts"
import { findPluginPackage, preparePluginInstall } from "../../opencode/plugin-package.ts"
import { copyProject, createSandbox, projectConfigDirectories, type Sandbox } from "../../opencode/sandbox.ts"
import { type ProjectTools, readProjectTools } from "../project-tools.ts"
import { guardPluginSource, wrapperSource } from "./module-sources.ts"

export interface EvalWorld {
  sandbox: Sandbox
  /** The folders the server's environment points at. */
  homes: { config: string; data: string; state: string; cache: string; configDir: string | undefined }
  /** The guard plugin's file (absolute). */
  guardPlugin: string
  /** Every tool id whose file was replaced by a wrapper. */
  wrappedIds: Set<string>
  /**
   * Tool ids that something other than a wrapper may answer: a plugin's `tool` hook, a tool file
   * of a folder the eval does not copy (`~/.opencode`). A call of one of them is refused unless
   * the case's `execute` names it, whatever else defines the id (a wrapper, a built-in).
   */
  unwrappedIds: Set<string>
  /** Tool files that could not be wrapped (they could not be imported): their tools are left out. */
  problems: Array<{ code: string; message: string }>
}

export interface EvalWorldOptions {
  directory: string
  env: Record<string, string | undefined>
  home?: string
  /** The project's tools, when already read (eval reads them once for the cases and the wrappers). */
  tools?: ProjectTools
  /** Tool ids some variant describes otherwise: the guard plugin asks the runner for their definitions. */
  variantIds?: readonly string[]
}

export async function createEvalWorld(options: EvalWorldOptions): Promise<EvalWorld> {
  const home = options.home ?? os.homedir()
  const env = options.env
  const projectTools = options.tools ?? (await readProjectTools(path.resolve(options.directory), env))
  const sandbox = await createSandbox({
    directory: options.directory,
    copyProject: true,
    prefix: "tool-tester-eval-",
    env,
  })
  try {
    const userData = env["XDG_DATA_HOME"] || path.join(home, ".local", "share")
    const homes = {
      config: sandbox.configHome,
      data: sandbox.dataHome,
      state: sandbox.stateHome,
      cache: env["XDG_CACHE_HOME"] || path.join(home, ".cache"),
      configDir: undefined as string | undefined,
    }
    // Config folder copy -> the user's folder it came from, to import the originals from there.
    const copies: Array<{ copy: string; original: string }> = []
    const userGlobal = globalConfigDirectory(env, home)
    if (existsSync(userGlobal)) await copyProject(userGlobal, sandbox.globalConfigDirectory)
    copies.push({ copy: sandbox.globalConfigDirectory, original: userGlobal })
    const configDir = env["OPENCODE_CONFIG_DIR"] ? path.resolve(env["OPENCODE_CONFIG_DIR"]) : undefined
    if (configDir !== undefined && existsSync(configDir)) {
      homes.configDir = path.join(sandbox.root, "config-dir")
      await copyProject(configDir, homes.configDir)
      copies.push({ copy: homes.configDir, original: configDir })
    }
    const projectRoot = path.resolve(options.directory)
    for (const folder of projectConfigDirectories(sandbox.project)) {
      // The copy holds the folders above the project up to its git worktree root where they are (copy-above.ts).
      copies.push({ copy: folder, original: path.join(projectRoot, path.relative(sandbox.project, folder)) })
    }
    const opencodeData = path.join(homes.data, "opencode")
    await mkdir(opencodeData, { recursive: true })
    for (const name of ["auth.json", "mcp-auth.json"]) {
      const file = path.join(userData, "opencode", name)
      if (existsSync(file)) await copyFile(file, path.join(opencodeData, name))
    }
    const bin = path.join(userData, "opencode", "bin")
    if (existsSync(bin)) await symlink(bin, path.join(opencodeData, "bin"), "junction")

    const wrappedIds = new Set<string>()
    // Tool files left out are the caller's to name when it read the tools (prepareEval does).
    const problems: EvalWorld["problems"] =
      options.tools === undefined ? projectTools.problems.map(({ code, message }) => ({ code, message })) : []
    const pluginPackage = await findPluginPackage(options.directory)
    for (const { copy, original } of copies) {
      for (const file of scanFolder(copy, TOOL_FOLDERS, SCANNED_EXTENSIONS)) {
        const originalFile = path.join(original, path.relative(copy, file))
        const tools = projectTools.files.get(originalFile)
        await assertInside(sandbox.root, file)
        if (tools === undefined) {
          // Named among the problems (it failed to import, or ended or stalled its process there).
          await writeFile(file, "// Left out by tool-tester eval: the file could not be imported.\nexport {}\n")
          continue
        }
        for (const tool of tools) wrappedIds.add(tool.id)
        await writeFile(file, wrapperSource(originalFile, tools))
      }
      // opencode would otherwise try to install its own (unpublished) @opencode-ai/plugin there
      // (docs/opencode-contract.md#driving-the-binary).
      await preparePluginInstall(copy, pluginPackage, sandbox.onDispose)
    }
    const unwrappedIds = new Set(
      projectTools.definitions
        .filter((definition) => definition.source === "plugin" || definition.folderKind === "home")
        .map((definition) => definition.id),
    )
    const guardPlugin = path.join(sandbox.root, "tool-tester-eval-guard.js")
    await assertInside(sandbox.root, guardPlugin)
    await writeFile(guardPlugin, guardPluginSource(options.variantIds ?? []))
    return { sandbox, homes, guardPlugin, wrappedIds, unwrappedIds, problems }
  } catch (error) {
    await sandbox.dispose()
    throw error
  }
}
