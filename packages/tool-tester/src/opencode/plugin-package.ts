// Driving the real binary (docs/opencode-contract.md#driving-the-binary): for every config folder
// opencode starts an npm install of `@opencode-ai/plugin` at its own version (unpublished), and the
// failed install breaks the tool imports. opencode skips that install when the folder has
// `node_modules` and its `package-lock.json` lists (under `packages[""]`) every dependency of its
// `package.json` plus `@opencode-ai/plugin`. So before the run we link an `@opencode-ai/plugin`
// package into each config folder's `node_modules` (unless one is there) and write the lock entries
// that are missing.

import { existsSync } from "node:fs"
import { lstat, mkdir, readdir, readFile, readlink, realpath, rm, symlink, unlink, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { ToolTesterError } from "../errors.ts"
import { findPackage } from "./opencode-binary.ts"

const pluginName = "@opencode-ai/plugin"

/** The `@opencode-ai/plugin` package folder: the project's own, else tool-tester's. */
export async function findPluginPackage(projectDirectory: string): Promise<string> {
  const found = await installedPluginPackage(projectDirectory)
  if (found !== undefined) return found
  throw new ToolTesterError(
    "OPENCODE_FAILED",
    `No built ${pluginName} package found for the tools to import. Install it in the project: \`npm i -D ${pluginName}\`.`,
  )
}

/**
 * The project's or tool-tester's `@opencode-ai/plugin`, else a stand-in written in `folder`: a
 * package of that name whose `tool()` returns its input with `tool.schema` the zod tool-tester
 * uses, which is all a tool or plugin uses of it at run time. So e2e runs a project that lists
 * only plugins, or one whose `.opencode` has no `node_modules` yet, however tool-tester was
 * installed (npx installs it without `@opencode-ai/plugin`).
 */
export async function pluginPackageFor(
  projectDirectory: string,
  folder: string,
  testerDirectory = dirname(fileURLToPath(import.meta.url)),
): Promise<string> {
  const found = await installedPluginPackage(projectDirectory, testerDirectory)
  if (found !== undefined) return found
  const standIn = join(folder, "opencode-ai-plugin")
  await mkdir(standIn, { recursive: true })
  const manifest = {
    name: pluginName,
    version: "1.18.33",
    type: "module",
    main: "index.js",
    exports: { ".": "./index.js", "./tool": "./index.js" },
  }
  await writeFile(join(standIn, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  const zod = import.meta.resolve("zod")
  await writeFile(
    join(standIn, "index.js"),
    `// tool-tester's stand-in for @opencode-ai/plugin (none was installed): tool() as the real one.\nimport { z } from ${JSON.stringify(zod)}\nexport function tool(input) {\n  return input\n}\ntool.schema = z\n`,
  )
  return standIn
}

/**
 * Makes opencode skip its own install in `configDirectory`. Changes are undone through `onUndo`
 * (needed when the folder is the user's own, not a copy).
 */
export async function preparePluginInstall(
  configDirectory: string,
  pluginPackage: string,
  onUndo: (undo: () => Promise<void>) => void,
): Promise<void> {
  const modules = join(configDirectory, "node_modules")
  const installed = join(modules, pluginName)
  // Something broken already there (a dangling link, a folder without package.json) is left alone.
  if ((await lstat(installed).catch(() => undefined)) === undefined) {
    const modulesStats = await lstat(modules).catch(() => undefined)
    if (modulesStats === undefined) {
      await mkdir(modules, { recursive: true })
      onUndo(() => rm(modules, { recursive: true, force: true }))
    } else if (modulesStats.isSymbolicLink()) {
      // A copied project links to the user's node_modules: shadow it so our link stays in the copy.
      await shadowLinkedFolder(modules, onUndo)
    }
    const scope = dirname(installed)
    if ((await lstat(scope).catch(() => undefined))?.isSymbolicLink()) await shadowLinkedFolder(scope, onUndo)
    const scopeExisted = existsSync(scope)
    await mkdir(scope, { recursive: true })
    await symlink(pluginPackage, installed, "junction")
    onUndo(() => (scopeExisted ? unlink(installed) : rm(scope, { recursive: true, force: true })))
  }
  await completeLockfile(configDirectory, await packageVersion(join(modules, pluginName)), onUndo)
}

// --- internal ---

async function installedPluginPackage(
  projectDirectory: string,
  testerDirectory = dirname(fileURLToPath(import.meta.url)),
): Promise<string | undefined> {
  for (const start of [projectDirectory, testerDirectory]) {
    const found = findPackage(pluginName, start)
    if (found !== undefined && (await entryExists(found))) return found
  }
  return undefined
}

async function completeLockfile(
  configDirectory: string,
  pluginVersion: string,
  onUndo: (undo: () => Promise<void>) => void,
): Promise<void> {
  const manifest = await readJsonObject(join(configDirectory, "package.json"))
  const lockPath = join(configDirectory, "package-lock.json")
  const lockText = await readFile(lockPath, "utf8").catch(() => undefined)
  const lock = (lockText === undefined ? undefined : parseObject(lockText)) ?? {}
  const packages = asObject(lock.packages) ?? {}
  const rootEntry = asObject(packages[""]) ?? {}
  const listed = new Set<string>()
  const kinds = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]
  for (const kind of kinds) for (const name of Object.keys(asObject(rootEntry[kind]) ?? {})) listed.add(name)
  const wanted: Record<string, string> = { [pluginName]: pluginVersion }
  for (const kind of kinds) {
    for (const [name, range] of Object.entries(asObject(manifest?.[kind]) ?? {})) wanted[name] = String(range)
  }
  const missing = Object.entries(wanted).filter(([name]) => !listed.has(name))
  if (missing.length === 0) return
  const dependencies = { ...(asObject(rootEntry.dependencies) ?? {}), ...Object.fromEntries(missing) }
  const completed = {
    lockfileVersion: 3,
    ...lock,
    packages: { ...packages, "": { ...rootEntry, dependencies } },
  }
  await writeFile(lockPath, `${JSON.stringify(completed, null, 2)}\n`)
  onUndo(() => (lockText === undefined ? rm(lockPath, { force: true }) : writeFile(lockPath, lockText)))
}

/** Replaces a link to a folder by a real folder of links to its entries (undone by `onUndo`). */
async function shadowLinkedFolder(path: string, onUndo: (undo: () => Promise<void>) => void): Promise<void> {
  const linkText = await readlink(path)
  const original = await realpath(path)
  const entries = await readdir(original)
  await unlink(path)
  await mkdir(path)
  onUndo(async () => {
    await rm(path, { recursive: true, force: true })
    await symlink(linkText, path, "junction")
  })
  for (const entry of entries) await symlink(join(original, entry), join(path, entry), "junction")
}

async function entryExists(packageDirectory: string): Promise<boolean> {
  const manifest = await readJsonObject(join(packageDirectory, "package.json"))
  const exportsField = asObject(manifest?.exports)
  const root = exportsField?.["."]
  const entry =
    typeof root === "string"
      ? root
      : (asObject(root)?.import ?? asObject(root)?.default ?? manifest?.module ?? manifest?.main ?? "index.js")
  return typeof entry === "string" && existsSync(join(packageDirectory, entry))
}

async function packageVersion(packageDirectory: string): Promise<string> {
  const manifest = await readJsonObject(join(packageDirectory, "package.json"))
  return typeof manifest?.version === "string" ? manifest.version : "*"
}

async function readJsonObject(path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(path, "utf8").catch(() => undefined)
  return text === undefined ? undefined : parseObject(text)
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(text))
  } catch {
    return undefined
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
