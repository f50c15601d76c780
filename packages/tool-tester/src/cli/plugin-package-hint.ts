// A command run in a plugin package's folder without --plugin loads nothing of the package: opencode
// reads a package only from opencode.json's "plugin" list, never from the folder it starts in. So
// `tool-tester list` there printed the built-ins, and `run weather` a rerouted call, with a hint to
// run from the project's folder, which is where the user already was.
import path from "node:path"
import { isRecord } from "../_is-record.ts"
import { readSourceText } from "../discovery/_source-file.ts"

/**
 * What to pass when `directory` holds a plugin package (a package.json with an entry, `main`,
 * `module` or `exports`, that depends on `@opencode-ai/plugin`) and no --plugin was given; else
 * undefined. A `.opencode` or global config folder's package.json has no entry, so it never counts.
 */
export function pluginPackageHint(
  input: { directory: string; plugins: readonly unknown[] },
  cwd: string,
): string | undefined {
  if (input.plugins.length > 0) return undefined
  const manifest = readManifest(path.join(input.directory, "package.json"))
  if (manifest === undefined) return undefined
  const hasEntry = ["main", "module", "exports"].some((key) => manifest[key] !== undefined)
  const dependsOnPlugin = ["dependencies", "peerDependencies"].some((key) => {
    const dependencies = manifest[key]
    return isRecord(dependencies) && dependencies["@opencode-ai/plugin"] !== undefined
  })
  if (!hasEntry || !dependsOnPlugin) return undefined
  const spec = path.resolve(cwd) === input.directory ? "." : input.directory
  return `${input.directory} holds a plugin package, which opencode loads only from the "plugin" list of opencode.json: to load it, pass --plugin ${spec} (after building it)`
}

function readManifest(file: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readSourceText(file))
    return isRecord(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}
