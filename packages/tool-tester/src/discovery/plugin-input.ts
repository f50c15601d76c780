import type { ProjectClient } from "../client/project-client.ts"
import { inBun } from "../runtime/here.ts"
import { ToolTesterError } from "../errors.ts"

/**
 * The first argument of a plugin function, as opencode 1.18.34 passes it
 * (docs/opencode-contract.md#plugin-input): `client` (the project's client: a real opencode
 * server's, a test's stub, or one that says why there is none), `project`, `worktree`,
 * `directory`, `experimental_workspace`, `serverUrl` (the server's URL once it runs) and `$`: Bun's
 * shell in the project folder under the bun engine; under the node engine, a `$` whose use throws.
 */
export function createPluginInput(options: {
  directory: string
  worktree: string
  client: ProjectClient
}): Record<string, unknown> {
  const now = Date.now()
  const { client } = options
  const input = {
    client: client.client,
    project: {
      id: "tool-tester",
      worktree: options.worktree,
      vcs: options.worktree === "/" ? undefined : "git",
      sandboxes: [],
      time: { created: now, updated: now },
    },
    worktree: options.worktree,
    directory: options.directory,
    experimental_workspace: { register() {} },
    get serverUrl() {
      return client.serverUrl
    },
    $: inBun ? bunShell(options.directory) : unavailable("input.$"),
  }
  return input
}

// --- internal ---

/** Bun's shell, running commands in the project folder as opencode's does. */
function bunShell(directory: string): unknown {
  type Shell = { cwd(path: string): unknown; env(variables: Record<string, string | undefined>): unknown }
  const shell = (globalThis as unknown as { Bun: { $: { Shell: new () => Shell } } }).Bun.$
  // A shell of its own (the global `Bun.$` stays as it is), with the process's environment.
  const own = new shell.Shell()
  own.cwd(directory)
  own.env(process.env)
  return own
}

function unavailable(what: string): unknown {
  const fail = () => {
    throw new ToolTesterError(
      "USAGE",
      `${what} is Bun's shell, which the node engine (Node) does not have: run with --engine bun (opencode's own Bun), or test this part with tool-tester e2e`,
      { data: { unavailable: what } },
    )
  }
  const target = () => {}
  return new Proxy(target, {
    get: (_target, key) => (key === "then" || typeof key === "symbol" ? undefined : fail()),
    apply: fail,
  })
}
