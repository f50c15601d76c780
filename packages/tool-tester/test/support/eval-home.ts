// A throw-away user for `tool-tester eval` tests: HOME, the XDG folders and TMPDIR under one temp
// folder, and a global opencode.json that defines only the test providers (`enabled_providers`),
// so opencode offers no real provider and nothing leaves the machine. `use(vi.stubEnv)` points
// this process's environment at it (undone after the test), as a user's shell would; a bench
// passes a setter of its own.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ENGINE_MARK } from "../../src/runtime/process-tree.ts"
import { leftRunning } from "./left-running.ts"
import { isolatedHome } from "./isolated-home.ts"

export interface TestProvider {
  baseURL: string
  models: string[]
}

export interface EvalHome {
  root: string
  /** The TMPDIR the runner's throw-away folders go to. */
  tmp: string
  /** The file the fixture's `weather` tool appends to when it really runs. */
  sideEffectFile: string
  /** Points HOME, XDG_*, TMPDIR and EVAL_TEST_SIDE_EFFECT at this home, through `set` (`vi.stubEnv` in tests). */
  use(set: (name: string, value: string | undefined) => void): void
  remove(): void
}

export function makeEvalHome(options: {
  providers: Record<string, TestProvider>
  /** The configured model (`provider/model`). */
  model?: string
  /** Also written: the user's opencode/auth.json in the data home. */
  auth?: Record<string, unknown>
  /** Tool files of the global config folder (`tools/<name>`), by file name. */
  globalTools?: Record<string, string>
  /** More of the global opencode.json. */
  config?: Record<string, unknown>
}): EvalHome {
  const root = mkdtempSync(join(tmpdir(), "tool-tester-eval-test-"))
  const home = join(root, "home")
  const config = join(home, ".config")
  const data = join(home, ".local", "share")
  const tmp = join(root, "tmp")
  for (const folder of [join(config, "opencode"), join(data, "opencode"), tmp]) mkdirSync(folder, { recursive: true })
  const provider: Record<string, unknown> = {}
  for (const [id, test] of Object.entries(options.providers)) {
    provider[id] = {
      npm: "@ai-sdk/openai-compatible",
      name: `test ${id}`,
      options: { baseURL: test.baseURL, apiKey: "test-key" },
      models: Object.fromEntries(test.models.map((model) => [model, { name: model, tool_call: true }])),
    }
  }
  const first = Object.entries(options.providers)[0]
  const small = first === undefined ? undefined : `${first[0]}/${first[1].models[0]}`
  const opencodeJson = {
    $schema: "https://opencode.ai/config.json",
    enabled_providers: Object.keys(options.providers),
    provider,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(small === undefined ? {} : { small_model: small }),
    autoupdate: false,
    share: "disabled",
    ...options.config,
  }
  writeFileSync(join(config, "opencode", "opencode.json"), `${JSON.stringify(opencodeJson, null, 2)}\n`)
  for (const [name, source] of Object.entries(options.globalTools ?? {})) {
    mkdirSync(join(config, "opencode", "tools"), { recursive: true })
    writeFileSync(join(config, "opencode", "tools", name), source)
  }
  if (options.auth !== undefined) writeFileSync(join(data, "opencode", "auth.json"), JSON.stringify(options.auth))
  const sideEffectFile = join(root, "side-effects.txt")
  return {
    root,
    tmp,
    sideEffectFile,
    use: (set) => {
      // config and data are the XDG folders of this home.
      for (const [name, value] of Object.entries(isolatedHome(home))) set(name, value)
      set("TMPDIR", tmp)
      set("EVAL_TEST_SIDE_EFFECT", sideEffectFile)
      for (const name of ["OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT"]) set(name, undefined)
    },
    remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 3 }),
  }
}

/**
 * Processes whose environment holds an eval run's marker and a TMPDIR inside `home`'s: what an
 * eval run as this home's user left running (not another test file's, running alongside), found
 * as the shared cleanup finds them (/proc on Linux, `ps` on macOS; on Windows, every process below
 * this test's: left-running.ts).
 */
export function evalProcesses(home: EvalHome): number[] {
  return leftRunning([`${ENGINE_MARK}=tool-tester-eval-`, `TMPDIR=${home.tmp}`])
}
