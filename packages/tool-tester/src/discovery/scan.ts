import { readdirSync, statSync } from "node:fs"
import path from "node:path"

/**
 * The files opencode would import from one config folder for a pattern like `{tool,tools}/*.{js,ts}`:
 * direct children only (no recursion), only the given extensions (so `.mjs`, `.cjs`, `.tsx` are ignored,
 * while `x.d.ts` matches `.ts`), dotfiles included, symlinks followed.
 *
 * opencode takes them in the order its glob returns, which is not sorted. We sort them by name in
 * each folder so runs are reproducible; doctor warns when two files in one folder define the same id.
 */
export function scanFolder(
  configDirectory: string,
  folderNames: readonly string[],
  extensions: readonly string[],
): string[] {
  const files: string[] = []
  for (const folderName of folderNames) {
    const folder = path.join(configDirectory, folderName)
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      continue
    }
    for (const name of names.sort()) {
      if (!extensions.includes(path.extname(name))) continue
      const file = path.join(folder, name)
      if (isFile(file)) files.push(file)
    }
  }
  return files
}

export const TOOL_FOLDERS = ["tool", "tools"] as const
export const PLUGIN_FOLDERS = ["plugin", "plugins"] as const
export const SCANNED_EXTENSIONS = [".js", ".ts"] as const

// --- internal ---

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile()
  } catch {
    return false
  }
}
