// A throw-away user for `tool-tester eval` tests: HOME, the XDG folders and TMPDIR under one temp
// folder, and a global opencode.json that defines only the test providers (`enabled_providers`),
// so opencode offers no real provider and nothing leaves the machine. `use()` points this
// process's environment at it (vi.stubEnv, undone after the test), as a user's shell would.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import { vi } from "vitest"
import { markerVariable } from "../../src/e2e/opencode-process.ts"

export interface TestProvider {
  baseURL: string
  models: string[]
}

export interface EvalHome {
  root: string
  /** In the environment of everything started under this home (EVAL_TEST_TAG): what `evalProcesses` looks for. */
  tag: string
  /** The TMPDIR the runner's throw-away folders go to. */
  tmp: string
  /** The file the fixture's `weather` tool appends to when it really runs. */
  sideEffectFile: string
  /** Points HOME, XDG_*, TMPDIR and EVAL_TEST_SIDE_EFFECT at this home until the test ends. */
  use(): void
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
  }
  writeFileSync(join(config, "opencode", "opencode.json"), `${JSON.stringify(opencodeJson, null, 2)}\n`)
  for (const [name, source] of Object.entries(options.globalTools ?? {})) {
    mkdirSync(join(config, "opencode", "tools"), { recursive: true })
    writeFileSync(join(config, "opencode", "tools", name), source)
  }
  if (options.auth !== undefined) writeFileSync(join(data, "opencode", "auth.json"), JSON.stringify(options.auth))
  const sideEffectFile = join(root, "side-effects.txt")
  const tag = randomUUID()
  return {
    root,
    tag,
    tmp,
    sideEffectFile,
    use: () => {
      vi.stubEnv("HOME", home)
      vi.stubEnv("USERPROFILE", home)
      vi.stubEnv("XDG_CONFIG_HOME", config)
      vi.stubEnv("XDG_DATA_HOME", data)
      vi.stubEnv("XDG_CACHE_HOME", join(home, ".cache"))
      vi.stubEnv("XDG_STATE_HOME", join(home, ".local", "state"))
      vi.stubEnv("TMPDIR", tmp)
      vi.stubEnv("EVAL_TEST_SIDE_EFFECT", sideEffectFile)
      vi.stubEnv("EVAL_TEST_TAG", tag)
      for (const name of ["OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT"])
        vi.stubEnv(name, undefined)
    },
    remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 3 }),
  }
}

/**
 * Processes (Linux) whose environment holds an eval run's marker and this home's tag: what an eval
 * under this home left running (other test files run evals at the same time, under homes of their own).
 */
export function evalProcesses(tag: string): number[] {
  if (process.platform !== "linux") return []
  const found: number[] = []
  for (const name of readdirSync("/proc")) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      const environment = readFileSync(`/proc/${pid}/environ`, "latin1")
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      const zombie = stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z"
      const marked = `\0${environment}`.includes(`\0${markerVariable}=tool-tester-eval-`)
      if (!zombie && marked && `\0${environment}\0`.includes(`\0EVAL_TEST_TAG=${tag}\0`)) found.push(pid)
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found
}
