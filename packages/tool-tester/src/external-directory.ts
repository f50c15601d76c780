import path from "node:path"
import { described } from "./_described.ts"
import { isRecord } from "./_is-record.ts"
import { refuseUnknownOptions } from "./_known-options.ts"
import { evaluate } from "./config/permission.ts"
import { ToolTesterError } from "./errors.ts"
import { defaultDataDirectory } from "./pipeline/data-directory.ts"
import type { PermissionOverrides } from "./pipeline/permissions.ts"
import { agentRules } from "./pipeline/permissions.ts"
import type { ToolProject } from "./types.ts"

/** The permission request opencode's `external_directory` rule makes for a path outside the workspace. */
export type ExternalDirectoryRequest = {
  permission: "external_directory"
  patterns: [string]
  always: [string]
  metadata: { filepath: string; parentDir: string }
}

export type ExternalDirectoryCheck =
  | { inside: true }
  | { inside: false; request: ExternalDirectoryRequest; decision: "allow" | "deny" | "ask" }

/**
 * Checks a path against the workspace boundary as opencode's built-in file tools do
 * (docs/opencode-contract.md#external-directory): inside the project directory, or inside the git
 * worktree (not for non-git projects, whose worktree is "/"), passes without asking. Otherwise it
 * returns the request a tool should pass to `ctx.ask()` and what the project's rules would answer.
 * The check is lexical: no symlinks resolved.
 */
export function checkExternalDirectory(
  project: Pick<ToolProject, "directory" | "worktree" | "config">,
  target: string,
  options: { kind?: "file" | "directory"; permissions?: PermissionOverrides; dataDirectory?: string } = {},
): ExternalDirectoryCheck {
  checkArguments(target, options)
  const full = path.resolve(project.directory, target)
  if (contains(project.directory, full) || (project.worktree !== "/" && contains(project.worktree, full))) {
    return { inside: true }
  }
  const folder = options.kind === "directory" ? full : path.dirname(full)
  const glob = path.join(folder, "*").replaceAll("\\", "/")
  const rules = agentRules({
    config: project.config.permission,
    overrides: options.permissions,
    dataDirectory: options.dataDirectory ?? defaultDataDirectory(),
  })
  return {
    inside: false,
    request: {
      permission: "external_directory",
      patterns: [glob],
      always: [glob],
      metadata: { filepath: full, parentDir: folder },
    },
    decision: evaluate("external_directory", glob, rules).action,
  }
}

// --- internal ---

const OPTIONS = { kind: true, permissions: true, dataDirectory: true } as const

/**
 * Refuses, with USAGE naming the argument, what would otherwise end as Node's own TypeError (a
 * target that is not a string) or a wrong answer without a word (`kind: "folder"` read as a file).
 */
function checkArguments(target: unknown, options: unknown): void {
  const usage = (message: string, option: string) => new ToolTesterError("USAGE", message, { data: { option } })
  if (typeof target !== "string")
    throw usage(
      `checkExternalDirectory's target must be a path string, not ${described(target)}${target instanceof URL ? ": for a file: URL pass fileURLToPath(url) (from node:url)" : ""}`,
      "target",
    )
  if (!isRecord(options))
    throw usage(`checkExternalDirectory's options must be an object, not ${described(options)}`, "options")
  refuseUnknownOptions("checkExternalDirectory", options, OPTIONS)
  if (options["kind"] !== undefined && options["kind"] !== "file" && options["kind"] !== "directory")
    throw usage(`kind must be "file" or "directory", not ${described(options["kind"])}`, "kind")
}

function contains(parent: string, child: string): boolean {
  const relative = path.relative(parent, child)
  return !relative.startsWith("..") && !path.isAbsolute(relative)
}
