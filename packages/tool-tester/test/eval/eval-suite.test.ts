// `evalSuite()` from `@opencode-ai/tool-tester/vitest`, as a user runs it: a test file in a project
// calls it, vitest runs it (a child vitest, as the user's own), and the cases come out as tests, one
// per case plus the case-file check and the gate, graded through the real opencode with the keyword
// model as the user's provider.
import { spawn } from "node:child_process"
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { packageRoot } from "../helpers.ts"
import { evalProcesses, type EvalHome, makeEvalHome } from "../support/eval-home.ts"
import { type KeywordModel, startKeywordModel } from "../support/keyword-model.ts"
import { isolatedHome } from "../support/isolated-home.ts"

const workspace = path.resolve(packageRoot, "..", "..")
const vitestBin = path.join(workspace, "node_modules", "vitest", "vitest.mjs")

const weatherTool = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Get the weather forecast for a city",
  args: { city: tool.schema.string().describe("The city") },
  async execute(args) {
    return "Sunny in " + args.city
  },
})
`

const cases = [
  {
    name: "paris",
    prompt: "weather forecast for city=Paris",
    expect: { calls: [{ tool: "weather", args: { city: "Paris" } }] },
  },
  {
    name: "rome",
    prompt: "weather forecast for city=Paris",
    expect: { calls: [{ tool: "weather", args: { city: "Rome" } }] },
  },
]

let keyword: KeywordModel
let home: EvalHome

describe("evalSuite in a user's vitest run", () => {
  beforeAll(async () => {
    keyword = await startKeywordModel()
    home = makeEvalHome({
      providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha"] } },
      model: "keyword/alpha",
    })
  })

  afterAll(async () => {
    await keyword?.close()
    home?.remove()
  })

  test("one test per case (failing with what the model called instead), the case-file check, and the gate", {
    timeout: 300_000,
  }, async () => {
    const project = path.join(home.root, "work", "app")
    const files: Record<string, string> = {
      ".opencode/tools/weather.ts": weatherTool,
      ".opencode/evals/weather.json": `${JSON.stringify(cases, null, 2)}\n`,
      "evals.test.ts": `import { evalSuite } from "@opencode-ai/tool-tester/vitest"
await evalSuite({ models: ["keyword/alpha"], runs: 2, threshold: 1, history: false })
`,
      "vitest.config.mjs": "export default { test: { include: ['evals.test.ts'] } }\n",
    }
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(project, name)), { recursive: true })
      writeFileSync(path.join(project, name), content)
    }
    mkdirSync(path.join(project, "node_modules", "@opencode-ai"), { recursive: true })
    symlinkSync(packageRoot, path.join(project, "node_modules", "@opencode-ai", "tool-tester"), "junction")
    symlinkSync(
      path.join(workspace, "packages", "plugin"),
      path.join(project, "node_modules", "@opencode-ai", "plugin"),
      "junction",
    )

    const report = path.join(home.root, "report.json")
    const homeDir = path.join(home.root, "home")
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && !/^(VITEST|TEST$|NODE_OPTIONS$|npm_|OPENCODE_)/.test(key)) env[key] = value
    }
    Object.assign(env, {
      ...isolatedHome(homeDir),
      TMPDIR: home.tmp,

      NO_COLOR: "1",
    })
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [vitestBin, "run", "--root", project, "--reporter=json", `--outputFile=${report}`],
        {
          cwd: project,
          env,
          stdio: "ignore",
        },
      )
      child.once("error", reject)
      child.once("close", resolve)
    })
    expect(exitCode).toBe(1)
    const results = (
      JSON.parse(readFileSync(report, "utf8")) as {
        testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>
      }
    ).testResults.flatMap((file) => file.assertionResults)
    const byTitle = Object.fromEntries(results.map((entry) => [entry.title, entry]))
    expect(Object.keys(byTitle)).toEqual([
      "the case files and models are valid",
      "paris",
      "rome",
      "gate: at least 100% of all trials pass",
    ])
    expect(byTitle["the case files and models are valid"]!.status).toBe("passed")
    expect(byTitle["paris"]!.status).toBe("passed")
    expect(byTitle["rome"]!.status).toBe("failed")
    expect(byTitle["rome"]!.failureMessages.join("\n")).toContain(
      'rome on keyword/alpha: 0/2 (expected weather({city: "Rome"}); called weather({city: "Paris"})',
    )
    expect(byTitle["gate: at least 100% of all trials pass"]!.status).toBe("failed")
    expect(byTitle["gate: at least 100% of all trials pass"]!.failureMessages.join("\n")).toContain("2/4 trials passed")
    expect(evalProcesses(home)).toEqual([])
  })
})
