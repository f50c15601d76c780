import { readdirSync, readFileSync } from "node:fs"
import { isRegularFile } from "./_file-stats.ts"
import { extname, join } from "node:path"

// opencode names a tool after its file without the extension, and after the export: two files
// `weather.ts` and `weather.js` in tools/ give it one id from two modules, and the last one loaded
// wins. This finds the files already in a config folder that would give one of the new ids.

/** The folders and extensions opencode 1.18 scans in a config folder: `{tool,tools}/*.{js,ts}`. */
const toolFolders: readonly string[] = ["tool", "tools"]
const toolExtensions: readonly string[] = [".js", ".ts"]

/** An existing tool file that gives (or, with the same name, would give) one of the new tool ids. */
export type IdCollision = { id: string; file: string }

/**
 * The tool files of config folder `root`, other than those about to be written (`ownFiles`), that
 * collide with a new tool file `toolName` giving `ids`:
 * - a file of the same name in another extension (`weather.js` beside a new `weather.ts`), whatever it exports;
 * - a file named after a new id with a default export (`weather_add.ts` beside a new `weather.ts` exporting `add`);
 * - a file whose named export gives a new id (`weather.ts` exporting `add`, for a new `weather_add.ts`).
 * Exports are read from the source text (`export default`, `export const NAME`, `export { NAME }`),
 * not by loading the module.
 */
export function findIdCollisions(
  root: string,
  toolName: string,
  ids: readonly string[],
  ownFiles: readonly string[],
): IdCollision[] {
  const collisions: IdCollision[] = []
  for (const file of toolFiles(root)) {
    if (ownFiles.includes(file.path)) continue
    if (file.base === toolName) {
      collisions.push({ id: toolName, file: file.path })
      continue
    }
    const source = readSource(file.path)
    if (ids.includes(file.base) && hasDefaultExport(source)) {
      collisions.push({ id: file.base, file: file.path })
      continue
    }
    for (const id of ids) {
      if (id.startsWith(`${file.base}_`) && hasNamedExport(source, id.slice(file.base.length + 1))) {
        collisions.push({ id, file: file.path })
      }
    }
  }
  return collisions
}

// --- internal ---

function toolFiles(root: string): Array<{ path: string; base: string }> {
  const files: Array<{ path: string; base: string }> = []
  for (const folder of toolFolders) {
    let names: string[]
    try {
      names = readdirSync(join(root, folder)).sort()
    } catch {
      continue
    }
    for (const name of names) {
      const extension = extname(name)
      if (!toolExtensions.includes(extension)) continue
      const path = join(root, folder, name)
      if (!isRegularFile(path)) continue
      files.push({ path, base: name.slice(0, -extension.length) })
    }
  }
  return files
}

function readSource(path: string): string {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return ""
  }
}

function hasDefaultExport(source: string): boolean {
  return /\bexport\s+default\b/.test(source) || /\bexport\s*\{[^}]*\bas\s+default\b[^}]*\}/.test(source)
}

function hasNamedExport(source: string, name: string): boolean {
  const escaped = name.replace(/[$]/g, "\\$")
  const declared = new RegExp(`\\bexport\\s+(?:const|let|var|(?:async\\s+)?function\\*?|class)\\s+${escaped}(?![\\w$])`)
  const listed = new RegExp(`\\bexport\\s*\\{[^}]*(?<![\\w$])${escaped}\\s*(?:,|\\}|$)`, "m")
  return declared.test(source) || listed.test(source)
}
