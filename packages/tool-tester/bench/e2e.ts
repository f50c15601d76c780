// Wall time of one scripted `tool-tester e2e` run with one tool call, against the floor: the same
// opencode binary answering a single text-only turn from the same mock, in a sandbox prepared
// beforehand (so the baseline pays for opencode only, while the e2e run pays for everything: copy
// of the project, sandbox, plugin pre-install, the tool call's extra model turn, teardown).
// Target: under 2x the baseline. From packages/tool-tester:
//
//   node --import tsx bench/e2e.ts [--runs N]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { startMockModel } from "../src/e2e/mock-model.ts"
import { resolveOpencode } from "../src/engine/opencode-binary.ts"
import { buildOpencodeConfig } from "../src/e2e/opencode-config.ts"
import { runOpencodeProcess } from "../src/e2e/opencode-process.ts"
import { findPluginPackage, preparePluginInstall } from "../src/e2e/plugin-package.ts"
import { opencodeEnvironment, runE2E } from "../src/e2e/run-e2e.ts"
import { createSandbox } from "../src/e2e/sandbox.ts"

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 3
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

// A project with one tool, inside the package so `@opencode-ai/plugin` resolves as it would for a user.
mkdirSync(path.join(packageRoot, ".tmp"), { recursive: true })
const project = mkdtempSync(path.join(packageRoot, ".tmp", "bench-e2e-"))
mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
writeFileSync(
  path.join(project, ".opencode", "tools", "greet.ts"),
  `import { tool } from "@opencode-ai/plugin"\nexport default tool({ description: "greet", args: { name: tool.schema.string() }, execute: async (args) => "hi " + args.name })\n`,
)
const empty = mkdtempSync(path.join(os.tmpdir(), "bench-e2e-empty-"))

async function baselineOnce(binary: string): Promise<number> {
  const sandbox = await createSandbox({ directory: empty, copyProject: true })
  const mock = await startMockModel({ script: { turns: [{ text: "hello" }] } })
  try {
    const layers = buildOpencodeConfig({
      baseURL: mock.baseURL,
      model: "mock-model",
      providerPackage: "@ai-sdk/openai-compatible",
      plugins: [],
      config: undefined,
    })
    await writeFile(path.join(sandbox.globalConfigDirectory, "opencode.json"), JSON.stringify(layers.global))
    await preparePluginInstall(sandbox.globalConfigDirectory, await findPluginPackage(empty), sandbox.onDispose)
    const env = opencodeEnvironment(sandbox, JSON.stringify(layers.content))
    const started = performance.now()
    const run = await runOpencodeProcess({
      binary,
      args: ["run", "--format", "json", "-m", "mock/mock-model", "say hello"],
      cwd: sandbox.project,
      env,
      marker: sandbox.marker,
      timeoutMs: 120_000,
    })
    const elapsed = performance.now() - started
    if (run.exitCode !== 0) throw new Error(`baseline opencode run failed: exit ${run.exitCode}`)
    return elapsed
  } finally {
    await mock.close()
    await sandbox.dispose()
  }
}

async function e2eOnce(): Promise<number> {
  const started = performance.now()
  const result = await runE2E({
    directory: project,
    script: { turns: [{ calls: [{ tool: "greet", args: { name: "Ada" } }] }, { text: "done" }] },
    timeoutMs: 120_000,
  })
  const elapsed = performance.now() - started
  if (result.calls[0]?.result !== "hi Ada")
    throw new Error(`e2e run returned ${JSON.stringify(result.calls[0]?.result)}`)
  return elapsed
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

try {
  const binary = await resolveOpencode({ directory: packageRoot })
  const baseline: number[] = []
  const e2e: number[] = []
  // Interleaved, so a slow moment of this noisy machine hits both sides alike.
  for (let index = 0; index < runs; index++) {
    baseline.push(await baselineOnce(binary))
    e2e.push(await e2eOnce())
  }
  const ratio = median(e2e) / median(baseline)
  console.log(`runs: ${runs} of each, interleaved; opencode ${binary}`)
  console.log(
    `baseline  opencode run, one text-only turn:        median ${median(baseline).toFixed(0)} ms  (${baseline.map((value) => value.toFixed(0)).join(", ")})`,
  )
  console.log(
    `e2e       tool-tester e2e, one tool call, all in:  median ${median(e2e).toFixed(0)} ms  (${e2e.map((value) => value.toFixed(0)).join(", ")})`,
  )
  console.log(`ratio e2e / baseline: ${ratio.toFixed(2)}x  target < 2x: ${ratio < 2 ? "PASS" : "FAIL"}`)
} finally {
  rmSync(project, { recursive: true, force: true })
  rmSync(empty, { recursive: true, force: true })
}
