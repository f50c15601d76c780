import { CreateToolError } from "./errors.ts"
import type { PackageJson } from "./package-json.ts"
import { printable, quoted } from "./printable.ts"

// The package.json script that runs the generated test. `test` when it is free; a `test` script of
// the user's own (`node --test`) stays theirs, as every other entry create-tool finds, and the
// generated test gets a script of its own beside it. Every command create-tool prints or writes for
// the test (next steps, the snapshot update and watch comments) names the script chosen here, so
// none of them runs the user's script instead of vitest.

export type TestScript = {
  /** `test`, `test:tools`, `test:tools-2`, ... */
  name: string
  /** The note on the scripts of the user's it steps around, when the package.json gains it under another name than `test`. */
  note: string | undefined
}

/**
 * The script that runs `command` (the template's test script, `vitest run`) in the package.json
 * `existing` at `path` (undefined when there is none): the first of `test`, `test:tools`,
 * `test:tools-2`, `test:tools-3`... that the package lacks or that runs `command` already. An
 * INVALID_PACKAGE_JSON error when its `scripts` is not an object, which no script can be added to.
 */
export function chooseTestScript(existing: PackageJson | undefined, command: string, path: string): TestScript {
  const scripts = existing?.["scripts"]
  if (scripts === undefined) return { name: "test", note: undefined }
  if (typeof scripts !== "object" || scripts === null || Array.isArray(scripts)) {
    throw new CreateToolError(
      "INVALID_PACKAGE_JSON",
      `${printable(path)} has a "scripts" field that is not an object, so the test's script cannot be added: make it an object and run again.`,
      { data: { path } },
    )
  }
  const taken = scripts as Record<string, unknown>
  const others: string[] = []
  for (let index = 0; ; index++) {
    const name = candidate(index)
    const current = taken[name]
    if (current === command) return { name, note: undefined }
    if (current === undefined) return { name, note: index === 0 ? undefined : note(path, others, name) }
    others.push(`${quoted(name)} (${printable(typeof current === "string" ? current : JSON.stringify(current))})`)
  }
}

// --- internal ---

function candidate(index: number): string {
  return index === 0 ? "test" : index === 1 ? "test:tools" : `test:tools-${index}`
}

function note(path: string, others: string[], name: string): string {
  const theirs = others.length === 1 ? `script ${others[0]} as it is` : `scripts ${others.join(", ")} as they are`
  return `${printable(path)}: kept your ${theirs}, and added the tool's test as the ${quoted(name)} script, which the next steps run.`
}
