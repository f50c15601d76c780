import { readdirSync } from "node:fs"
import path from "node:path"
import type { ConfigDirectory } from "../discovery/config-dirs.ts"
import { folderLinkLoops, TOOL_FOLDERS } from "../discovery/scan.ts"
import type { Finding } from "./finding.ts"

const TEST_FILE = /[._-](test|spec)\.(js|ts)$/
const IGNORED_EXTENSIONS = [".mjs", ".cjs", ".tsx", ".mts", ".cts", ".jsx"]

/** Test files among the tool files: opencode imports every `.ts`/`.js` in tools/, tests included. */
export function testFileFindings(files: ReadonlyArray<{ file: string; ids: string[] }>): Finding[] {
  return files
    .filter(({ file }) => TEST_FILE.test(path.basename(file)))
    .map(({ file, ids }) => ({
      code: "TEST_FILE_IN_TOOLS" as const,
      severity: "warning" as const,
      file,
      message: `opencode imports this test file as a tool file${ids.length > 0 ? ` (tools ${ids.join(", ")})` : ""}, and if it imports a test framework the import fails and takes the tool list down with it: move it out of ${path.basename(path.dirname(file))}/ (for example to test/)`,
    }))
}

/** Files in tool/ or tools/ that look like tools but that opencode's `*.{js,ts}` glob never loads. */
export function ignoredFileFindings(directories: readonly ConfigDirectory[]): Finding[] {
  const findings: Finding[] = []
  for (const directory of directories) {
    for (const folderName of TOOL_FOLDERS) {
      const folder = path.join(directory.path, folderName)
      for (const name of namesIn(folder)) {
        const extension = path.extname(name)
        if (!IGNORED_EXTENSIONS.includes(extension) || name.endsWith(".d.mts") || name.endsWith(".d.cts")) continue
        findings.push({
          code: "IGNORED_FILE",
          severity: "warning",
          file: path.join(folder, name),
          message: `opencode loads only .ts and .js files from ${folderName}/, so this ${extension} file is never loaded: rename it to ${path.basename(name, extension)}${extension.includes("t") ? ".ts" : ".js"}`,
        })
      }
    }
  }
  return findings
}

/** Symbolic links in tool/ or tools/ that loop back to a folder holding them (`loop -> .`). */
export function folderLoopFindings(directories: readonly ConfigDirectory[]): Finding[] {
  return directories.flatMap((directory) =>
    TOOL_FOLDERS.flatMap((folderName) =>
      folderLinkLoops(path.join(directory.path, folderName)).map(({ file, target }) => ({
        code: "SYMLINK_LOOP" as const,
        severity: "warning" as const,
        file,
        message: `a symbolic link to a folder that holds it (${path.basename(file)} -> ${target}): opencode looks only at the files directly in ${folderName}/ and skips it, but anything that walks ${folderName}/ recursively follows it forever: delete the link`,
      })),
    ),
  )
}

// --- internal ---

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder).sort()
  } catch {
    return []
  }
}
