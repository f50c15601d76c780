// eval runs a tool only when the case's `execute` names it, whatever defines the id: a plugin's
// tool with a built-in's id (`read`) or a project tool's id, and the tools of `~/.opencode` (which
// the eval does not copy), with or without a project tool of the same id, all used to run for real.
// Against the real opencode binary, offline (the keyword model).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { findPluginPackage, preparePluginInstall } from "../../src/opencode/plugin-package.ts"
import type { EvalRunnerResult } from "../../src/eval/runner/index.ts"
import { runEvalTrials } from "../../src/eval/runner/index.ts"
import type { EvalCase, EvalTrial } from "../../src/eval-cases/types.ts"
import { opencode } from "../helpers.ts"
import { type EvalHome, makeEvalHome } from "../support/eval-home.ts"
import { type KeywordModel, startKeywordModel } from "../support/keyword-model.ts"

/** A tool (no imports: the project has no node_modules) that appends `<id> <where>` to the side-effect file when it really runs. */
function toolSource(id: string, where: string, description: string): string {
  return `{
    description: ${JSON.stringify(description)},
    args: {},
    async execute() {
      const { appendFileSync } = await import("node:fs")
      appendFileSync(process.env.EVAL_TEST_SIDE_EFFECT, ${JSON.stringify(`${id} ${where}\n`)})
      return ${JSON.stringify(`${id} really ran (${where})`)}
    },
  }`
}

const cases: EvalCase[] = [
  { name: "plugin read", prompt: "read the ledger page from the archive" },
  { name: "plugin over project", prompt: "lookup the ledger entry" },
  { name: "home over project", prompt: "weather forecast today" },
  { name: "home only", prompt: "greet the visitor" },
  { name: "home only, executed", prompt: "greet the visitor", execute: ["greet"] },
]

let keyword: KeywordModel
let home: EvalHome
let result: EvalRunnerResult

function call(name: string): EvalTrial["turns"][number]["calls"][number] | undefined {
  return result.trials.find((trial) => trial.case === name)?.turns[0]?.calls[0]
}

describe.skipIf(!opencode.binary)("eval with tools it cannot wrap", () => {
  beforeAll(async () => {
    keyword = await startKeywordModel()
    home = makeEvalHome({
      providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha"] } },
      model: "keyword/alpha",
    })
    home.use(vi.stubEnv)
    const project = path.join(home.root, "project")
    mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
    mkdirSync(path.join(project, ".opencode", "plugins"), { recursive: true })
    writeFileSync(
      path.join(project, ".opencode", "tools", "lookup.js"),
      `export default ${toolSource("lookup", "project", "Look up an entry")}\n`,
    )
    writeFileSync(
      path.join(project, ".opencode", "tools", "weather.js"),
      `export default ${toolSource("weather", "project", "Weather forecast")}\n`,
    )
    writeFileSync(
      path.join(project, ".opencode", "plugins", "shadow.js"),
      `export const Shadow = async () => ({
  tool: {
    read: ${toolSource("read", "plugin", "Read the ledger page from the archive")},
    lookup: ${toolSource("lookup", "plugin", "Look up the ledger entry")},
  },
})
`,
    )
    const homeFolder = path.join(home.root, "home", ".opencode")
    const homeTools = path.join(homeFolder, "tools")
    mkdirSync(homeTools, { recursive: true })
    // As a user's ~/.opencode is once opencode installed its plugin package there (offline, it would try for minutes).
    await preparePluginInstall(homeFolder, await findPluginPackage(project), () => {})
    writeFileSync(
      path.join(homeTools, "weather.js"),
      `export default ${toolSource("weather", "home", "Weather forecast for today")}\n`,
    )
    writeFileSync(
      path.join(homeTools, "greet.js"),
      `export default ${toolSource("greet", "home", "Greet the visitor")}\n`,
    )
    result = await runEvalTrials({
      directory: project,
      cases,
      models: [],
      concurrency: 2,
      timeoutMs: 90_000,
      opencode: opencode.binary!,
    })
  }, 300_000)

  afterAll(async () => {
    vi.unstubAllEnvs()
    await keyword?.close()
    home?.remove()
  })

  it("refuses every call whose id a plugin or ~/.opencode defines, unless execute names it", () => {
    for (const [name, tool] of [
      ["plugin read", "read"],
      ["plugin over project", "lookup"],
      ["home over project", "weather"],
      ["home only", "greet"],
    ] as const) {
      expect(call(name), name).toMatchObject({
        tool,
        status: "error",
        error: expect.stringContaining("Not run by tool-tester eval"),
      })
    }
    expect(call("home only, executed")).toMatchObject({ tool: "greet", status: "completed" })
    const ran = existsSync(home.sideEffectFile) ? readFileSync(home.sideEffectFile, "utf8") : ""
    expect(ran.split("\n").filter(Boolean)).toEqual(["greet home"])
  })
})
