// Regenerates the conformance golden files by running each probe project through the REAL opencode
// binary with a scripted mock model (runE2E). From packages/tool-tester:
//
//   node --import tsx test/conformance/generate-golden.ts [set ...] [--opencode PATH]
//
// Probes: `probes/<set>/` is an opencode project (`.opencode/tools/*.ts`) with a `probe.json`:
//   { "description": string,
//     "engines"?: string[],            // engines the set needs, e.g. ["bun"] for tools using Bun's API;
//                                      // copied as is into the golden file (the conformance test reads it)
//     "runs": [{ "name": string,
//                "model"?: string,      // default "mock-model" (ids with gemini / gpt- change the output)
//                "provider"?: string,   // npm package, default "@ai-sdk/openai-compatible"
//                "config"?: object,     // opencode config applied over the project's (runE2E `config`)
//                "agent"?: string,      // `opencode run --agent` (runE2E `agent`)
//                "git"?: boolean,       // run in a `git init`ed copy (worktree = project) instead of none ("/")
//                "timeoutMs"?: number,  // bound of the run (default 240000); a run that reaches it is
//                                       // stopped (opencode's process tree included) and recorded as hung
//                "script": Script }] }  // the model's turns (src/e2e/script.ts)
//
// Golden: `../golden/<set>.json` =
//   { "set", "description", "engines" (only when probe.json has it), "opencodeVersion",
//     "runs": [{ "name", "model", "provider", "config" (object or null), "git",
//                "requests": ["title" | "main", ...] (the kinds of the model requests, in arrival order),
//                "toolNames": [names in the order sent] or null when no main request was made,
//                "tools": [the `tools` array of the first main request, exactly as sent],
//                "calls": [{ "turn", "called": {name, arguments}, "ran": {name, arguments} or null,
//                            "result": the tool result text the model received (null if none),
//                            "status", "title", "metadata", "error", "input" (the tool part's state) }],
//                "toolOutputFiles": [{ "bytes", "sha256" }] (full outputs of truncated results, in id order),
//                "errors": [{ "source", "message" }] (opencode error events, WARN/ERROR log lines),
//                "exitCode",
//                "hung": true (only when the run reached its `timeoutMs`: opencode was stopped, so
//                        `exitCode` is null and the rest is what it had done by then) }] }
// Run-specific text is replaced everywhere by placeholders: the full-output file path by
// `<outputPath>`, the project folder by `<directory>`, the throw-away home by `<home>`, the rest of
// the sandbox by `<sandbox>`, error refs by `err_<ref>`, log run ids by `run=<id>`.

import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { E2EResult } from "../../src/e2e/e2e-result.ts"
import { ToolTesterError } from "../../src/errors.ts"
import { resolveOpencode } from "../../src/engine/opencode-binary.ts"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { parseScript, type Script } from "../../src/e2e/script.ts"

interface ProbeRun {
  name: string
  model?: string
  provider?: string
  config?: Record<string, unknown>
  git?: boolean
  agent?: string
  timeoutMs?: number
  script: Script
}

interface Probe {
  description: string
  engines?: string[]
  runs: ProbeRun[]
}

const probesDirectory = fileURLToPath(new URL("./probes", import.meta.url))
const goldenDirectory = fileURLToPath(new URL("../golden", import.meta.url))

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const opencodeIndex = args.indexOf("--opencode")
  const opencodeArg = opencodeIndex === -1 ? undefined : args.splice(opencodeIndex, 2)[1]
  const opencode = await resolveOpencode(opencodeArg === undefined ? {} : { opencode: opencodeArg })
  const opencodeVersion = execFileSync(opencode, ["--version"], { encoding: "utf8" }).trim()
  const sets = args.length > 0 ? args : readdirSync(probesDirectory).sort()
  for (const set of sets) {
    const probe = JSON.parse(readFileSync(join(probesDirectory, set, "probe.json"), "utf8")) as Probe
    const runs = []
    for (const run of probe.runs) {
      const started = Date.now()
      process.stdout.write(`${set} / ${run.name} ... `)
      runs.push(await generateRun(join(probesDirectory, set), run, opencode))
      process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`)
    }
    const engines = probe.engines === undefined ? {} : { engines: probe.engines }
    const golden = { set, description: probe.description, ...engines, opencodeVersion, runs }
    writeFileSync(join(goldenDirectory, `${set}.json`), `${JSON.stringify(golden, null, 2)}\n`)
  }
}

// --- internal ---

async function generateRun(directory: string, run: ProbeRun, opencode: string): Promise<unknown> {
  const script = parseScript(run.script)
  // runE2E's own copy is a git worktree root (e2e/worktree-root.ts): a probe that records what
  // opencode does outside git (worktree "/") runs in place, in a copy of ours without one.
  const gitCopy = mkdtempSync(join(tmpdir(), "tool-tester-probe-copy-"))
  const project = join(gitCopy, "project")
  cpSync(directory, project, { recursive: true })
  if (run.git === true) execFileSync("git", ["init", "-q"], { cwd: project })
  const timeoutMs = run.timeoutMs ?? 240_000
  try {
    const result = await runE2E({
      directory: project,
      copyProject: false,
      script,
      opencode,
      timeoutMs,
      ...(run.model === undefined ? {} : { model: run.model }),
      ...(run.provider === undefined ? {} : { provider: run.provider }),
      ...(run.config === undefined ? {} : { config: run.config }),
      ...(run.agent === undefined ? {} : { agent: run.agent }),
    }).catch((error: unknown) => {
      const hung = hungResult(error, timeoutMs)
      if (hung === undefined) throw error
      return { ...hung, hung: true }
    })
    return normalise(goldenRun(run, result), result)
  } finally {
    rmSync(gitCopy, { recursive: true, force: true })
  }
}

/** The partial result of a run that runE2E stopped at its timeout, else undefined. */
function hungResult(error: unknown, timeoutMs: number): E2EResult | undefined {
  if (!(error instanceof ToolTesterError)) return undefined
  if (error.code !== "TOOL_TIMEOUT" && error.code !== "OPENCODE_FAILED") return undefined
  const result = (error.data as { result?: E2EResult } | undefined)?.result
  // OPENCODE_FAILED also means "ended before talking to the model": that run exited on its own.
  if (result === undefined || result.exitCode !== null || result.durationMs < timeoutMs) return undefined
  return result
}

function goldenRun(run: ProbeRun, result: E2EResult & { hung?: boolean }): unknown {
  return {
    name: run.name,
    model: run.model ?? "mock-model",
    provider: run.provider ?? "@ai-sdk/openai-compatible",
    config: run.config ?? null,
    git: run.git ?? false,
    ...(run.agent === undefined ? {} : { agent: run.agent }),
    requests: result.requests.map((request) => request.kind),
    toolNames: result.tools?.map(toolName) ?? null,
    tools: result.tools,
    calls: result.calls.map((call) => ({
      turn: call.turn,
      called: call.as_called,
      ran: call.as_run,
      result: call.result,
      status: call.status,
      title: call.title,
      metadata: call.metadata,
      error: call.error,
      input: call.input,
    })),
    toolOutputFiles: result.toolOutputFiles.map((file) => ({
      bytes: file.bytes,
      sha256: file.content === undefined ? null : createHash("sha256").update(file.content).digest("hex"),
    })),
    errors: result.errors,
    exitCode: result.exitCode,
    ...(result.hung === true ? { hung: true } : {}),
  }
}

function toolName(tool: unknown): string {
  const record = tool as { name?: string; function?: { name?: string } }
  return record.function?.name ?? record.name ?? "?"
}

function normalise(value: unknown, result: E2EResult): unknown {
  const sandboxRoot = result.sandbox.home.replace(/\/home$/, "")
  const outputFolder = `${result.sandbox.data}/opencode/tool-output/`
  let text = JSON.stringify(value)
  text = text.replace(new RegExp(`${escapeRegExp(outputFolder)}tool_[A-Za-z0-9]+`, "g"), "<outputPath>")
  text = text.split(result.sandbox.project).join("<directory>")
  text = text.split(result.sandbox.home).join("<home>")
  text = text.split(sandboxRoot).join("<sandbox>")
  text = text.replace(/err_[A-Za-z0-9]+/g, "err_<ref>").replace(/run=[0-9a-f]+/g, "run=<id>")
  return JSON.parse(text)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
