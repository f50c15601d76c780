// Many scripted e2e runs through one `opencode serve`, for tests that observe what opencode sends
// many provider setups: each setup gets a mock model of its own and a provider `mock-<n>` pointed at
// it, all in one config, and runs as a session of the one server (a session costs a fraction of
// an `opencode run`, which starts opencode anew). The project, sandbox, plugin install and config
// layers are e2e's own (src/e2e/sandbox-setup.ts); what a session returns is what runE2E's result
// holds of it: the requests its mock recorded, the calls' end states, and opencode's error.
import { mergeConfig, type OpencodeConfig } from "../../src/config/opencode-config.ts"
import { type CapturedRequest, type MockModel, startMockModel } from "../../src/e2e/mock-model.ts"
import { defaultModel, mockProvider } from "../../src/e2e/opencode-config.ts"
import { configureSandbox } from "../../src/e2e/sandbox-setup.ts"
import { defaultPrompt, parseScript, type Script } from "../../src/e2e/script.ts"
import { serverApi } from "../../src/eval/runner/server-api.ts"
import { resolveOpencode } from "../../src/opencode/opencode-binary.ts"
import { type RunningServer, startOpencodeServer } from "../../src/opencode/opencode-server.ts"
import { pluginPackageFor } from "../../src/opencode/plugin-package.ts"
import { createSandbox, projectConfigDirectories } from "../../src/opencode/sandbox.ts"
import { endMarked } from "../../src/runtime/process-tree.ts"

export type ScriptedSetup = {
  /** The provider's npm package. */
  npm: string
  /** The model id (default mock-model). */
  model?: string
  /** Its opencode config: `provider.mock` is this setup's provider (renamed `mock-<n>`); nothing else. */
  config?: Record<string, unknown>
  script: Script
}

export type SessionRun = {
  /** The provider id of the setup in the server's config (`mock-<n>`). */
  providerID: string
  /** What the setup's mock model recorded. */
  requests: CapturedRequest[]
  /** The state each tool part of the session ended in, in order. */
  callStates: string[]
  /** opencode's error ending the session's turn (`{name, data: {message}}`), if any. */
  error: { name?: string; data?: { message?: string } } | undefined
}

export type ScriptedSessions = {
  /** Runs setup `index`'s script as a new session; once per setup. */
  run(index: number): Promise<SessionRun>
  /** Ends the server and the mocks, and removes the sandbox. */
  close(): Promise<void>
}

/** The provider id setup `index` has in the server's config. */
const providerIdOf = (index: number) => `mock-${index}`

/** `config` with its `provider.mock` renamed `providerID`: the setup's config as the server (and a loaded project) reads it. */
export function renamedConfig(config: Record<string, unknown> | undefined, providerID: string) {
  if (config === undefined) return undefined
  const { provider, ...rest } = config as { provider?: Record<string, unknown> }
  if (Object.keys(rest).length > 0)
    throw new Error(`a scripted setup's config holds only provider.mock, not ${Object.keys(rest).join(", ")}`)
  return { provider: { [providerID]: provider?.mock ?? {} } }
}

export async function startScriptedSessions(options: {
  directory: string
  setups: readonly ScriptedSetup[]
  /** Config of the whole server, beside the setups' providers (`attachment`, `permission`, ...). */
  config?: Record<string, unknown>
  tempDirectory: string
}): Promise<ScriptedSessions> {
  const { directory, setups } = options
  const binary = await resolveOpencode({ directory })
  const sandbox = await createSandbox({ directory, copyProject: true, tempDirectory: options.tempDirectory })
  const mocks: MockModel[] = []
  let server: RunningServer | undefined
  const close = async () => {
    server?.stop()
    await Promise.all(mocks.map((mock) => mock.close()))
    endMarked(sandbox.marker)
    await sandbox.dispose()
  }
  try {
    for (const setup of setups) mocks.push(await startMockModel({ script: parseScript(setup.script) }))
    const content = serverConfig(setups, mocks, options.config ?? {})
    // The global layer, the plugin install and the environment as e2e makes them; the content layer
    // (one mock provider) gives way to the one with every setup's provider.
    const { env } = await configureSandbox(
      sandbox,
      {
        baseURL: mocks[0]!.baseURL,
        model: defaultModel,
        providerPackage: setups[0]!.npm,
        plugins: [],
        config: undefined,
      },
      {
        pluginPackage: await pluginPackageFor(directory, sandbox.tmp),
        configDirectories: [sandbox.globalConfigDirectory, ...projectConfigDirectories(sandbox.project)],
      },
    )
    server = await startOpencodeServer({
      binary,
      directory: sandbox.project,
      env,
      configContent: content,
      pure: false,
      ownHomes: false,
    })
  } catch (error) {
    await close()
    throw error
  }
  const api = serverApi(server, sandbox.project)
  return {
    close,
    run: async (index) => {
      const setup = setups[index]!
      const providerID = providerIdOf(index)
      // A title of its own: opencode then asks no model for one.
      const session = await api.post<{ id: string }>("/session", { title: `scripted setup ${index}` })
      const answer = await api.post<{ info?: { error?: SessionRun["error"] } }>(`/session/${session.id}/message`, {
        model: { providerID, modelID: setup.model ?? defaultModel },
        parts: [{ type: "text", text: setup.script.prompt ?? defaultPrompt }],
      })
      const messages = await api.get<Array<{ parts: Array<{ type: string; state?: { status?: string } }> }>>(
        `/session/${session.id}/message`,
      )
      const callStates = messages.flatMap((message) =>
        message.parts.filter((part) => part.type === "tool").map((part) => part.state?.status ?? "unknown"),
      )
      return { providerID, requests: mocks[index]!.requests, callStates, error: answer.info?.error }
    },
  }
}

// --- internal ---

/** One provider per setup, each pointed at its own mock, with the setup's config merged in. */
function serverConfig(
  setups: readonly ScriptedSetup[],
  mocks: readonly MockModel[],
  shared: Record<string, unknown>,
): Record<string, unknown> {
  let config = shared as OpencodeConfig
  for (const [index, setup] of setups.entries()) {
    const providerID = providerIdOf(index)
    const provider = mockProvider({
      baseURL: mocks[index]!.baseURL,
      model: setup.model ?? defaultModel,
      providerPackage: setup.npm,
    })
    config = mergeConfig(config, { provider: { [providerID]: provider } } as OpencodeConfig)
    const own = renamedConfig(setup.config, providerID)
    if (own !== undefined) config = mergeConfig(config, own as OpencodeConfig)
  }
  const first = `${providerIdOf(0)}/${setups[0]?.model ?? defaultModel}`
  return { ...config, model: first, small_model: first }
}
