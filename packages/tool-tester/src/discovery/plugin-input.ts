import { ToolTesterError } from "../errors.ts"

/**
 * The first argument of a plugin function. `directory`, `worktree`, `project` and `serverUrl` are
 * what opencode passes; `client` (an SDK client talking to a running opencode server) and `$` (Bun's
 * shell) do not exist outside opencode: using them throws an error that says so.
 */
export function createPluginInput(options: { directory: string; worktree: string }): Record<string, unknown> {
  const now = Date.now()
  return {
    client: unavailable("input.client (the opencode SDK client)"),
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
    serverUrl: new URL("http://localhost:4096/"),
    $: unavailable("input.$ (Bun's shell)"),
  }
}

// --- internal ---

function unavailable(what: string): unknown {
  const fail = () => {
    throw new ToolTesterError(
      "USAGE",
      `${what} exists only inside opencode; tool-tester cannot provide it: test this part with tool-tester e2e`,
      { data: { unavailable: what } },
    )
  }
  const target = () => {}
  return new Proxy(target, {
    get: (_target, key) => (key === "then" || typeof key === "symbol" ? undefined : fail()),
    apply: fail,
  })
}
