// Our pipeline against what the real opencode 1.18.34 binary did with the same probe projects.
// The golden files come from `node --import tsx test/conformance/generate-golden.ts` (see its header
// for the format). Every run of every set is replayed through tool-tester: tool names and order, the
// custom tools' schemas as sent, and for each call of a custom tool or of `invalid` the text the
// model received, the status, title and metadata, and the saved full output of truncated results.
import { createHash } from "node:crypto"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, onTestFinished, test } from "vitest"
import type { RunResult } from "../../src/index.ts"
import { callTool, closeProject, getToolSchemas, listTools, loadTools } from "../../src/index.ts"
import { BUILTIN_TOOL_IDS } from "../../src/pipeline/builtins.ts"

type GoldenCall = {
  called: { name: string; arguments: string }
  ran: { name: string; arguments: string } | null
  result: string | null
  status: string
  title: string | null
  metadata: Record<string, unknown> | null
}
type GoldenRun = {
  name: string
  model: string
  provider: string
  config: Record<string, unknown> | null
  git: boolean
  /** `opencode run --agent`: passed as the calls' `agent` option. */
  agent?: string
  toolNames: string[] | null
  tools: Array<Record<string, unknown>>
  calls: GoldenCall[]
  toolOutputFiles: Array<{ bytes: number; sha256: string }>
  /** opencode's error events, log lines and what else it printed on stderr. */
  errors: Array<{ source: string; message: string }>
  /** opencode never finished the run: the generator stopped it at its bound. */
  hung?: boolean
}
/** `engines`: the engines that can run the set (Bun's API exists only in Bun); every engine when absent. */
type Golden = { set: string; opencodeVersion: string; engines?: string[]; runs: GoldenRun[] }

const here = path.dirname(fileURLToPath(import.meta.url))
const packageRoot = path.resolve(here, "..", "..")
const goldenDirectory = path.join(here, "..", "golden")
const goldens: Golden[] = readdirSync(goldenDirectory)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => JSON.parse(readFileSync(path.join(goldenDirectory, name), "utf8")))
/**
 * Calls whose text differs from opencode's on purpose, by what docs/fidelity.md#inputclient
 * documents; for them the status is compared, not the text. Keyed `set/run/tool`.
 */
const DOCUMENTED_DIFFERENCES: Record<string, string> = {
  "plugin-client-init/provider.list-not-awaited/init_result":
    "the server behind input.client lists one provider, pointed at a refused port, so nothing leaves the machine",
  "plugin-client-execute/execute-calls/exec_messages":
    "a noReply user message has no `summary`; and a later turn's list in opencode also holds the earlier turns",
  "plugin-client-execute/prompt-no-reply/exec_messages": "only the calling turn is reproduced, not the earlier ones",
  "plugin-client-execute/execute-calls/exec_config":
    "the server's config also has enabled_providers: only its provider pointed at a refused port",
  "plugin-client-execute/execute-calls/exec_path":
    "the server's data and state folders are temporary ones of its own, so its sessions never reach your history",
  "plugin-client-execute/execute-calls/exec_session":
    "the session tool-tester creates has neither `opencode run`'s permission rules nor a summary yet",
}

/**
 * The golden's text as opencode itself would give it, where the recording holds what the generator
 * added: the generator's OPENCODE_* settings (config, its disable switches, its --log-level and
 * --print-logs) are in the environment beside what opencode adds (OPENCODE, OPENCODE_PID).
 */
function ownExpectation(text: string): string {
  if (!text.startsWith("{") || !text.includes('"env":')) return text
  const recorded = JSON.parse(text) as { env?: unknown }
  if (typeof recorded.env !== "string") return text
  const env = JSON.parse(recorded.env) as { opencode: string[] }
  env.opencode = env.opencode.filter((entry) => /^OPENCODE(_PID)?=/.test(entry))
  return JSON.stringify({ ...recorded, env: JSON.stringify(env) })
}
// Built-ins other than `invalid` are opencode's own code: tool-tester does not run them.
const BUILTINS = new Set(BUILTIN_TOOL_IDS.filter((id) => id !== "invalid"))

/** A copy of the probe outside any git repository (worktree "/"), or its own repository, as the generator ran it. */
function probeCopy(set: string, git: boolean): { directory: string; env: Record<string, string>; home: string } {
  const sandbox = mkdtempSync(path.join(os.tmpdir(), "tool-tester-conformance-"))
  onTestFinished(() => rmSync(sandbox, { recursive: true, force: true }))
  const directory = path.join(sandbox, "project")
  cpSync(path.join(here, "probes", set), directory, { recursive: true })
  rmSync(path.join(directory, "probe.json"), { force: true })
  // opencode finds @opencode-ai/plugin in .opencode/node_modules; here it comes from this package's.
  symlinkSync(path.join(packageRoot, "node_modules"), path.join(sandbox, "node_modules"), "dir")
  if (git) mkdirSync(path.join(directory, ".git"))
  // The e2e runner's global layer: allow everything, overridable by the project and the run's config.
  const home = path.join(sandbox, "home")
  mkdirSync(path.join(home, ".config", "opencode"), { recursive: true })
  writeFileSync(path.join(home, ".config", "opencode", "opencode.json"), `{"permission":{"*":"allow"}}`)
  return { directory, env: { XDG_CONFIG_HOME: path.join(home, ".config") }, home }
}

function sentTool(tool: Record<string, unknown>): { name: unknown; description: unknown; parameters: unknown } {
  const inner = (tool["function"] ?? tool) as Record<string, unknown>
  return { name: inner["name"], description: inner["description"], parameters: inner["parameters"] }
}

function modelVisible(result: RunResult, directory: string): string {
  let text = result.output
  if (result.outputPath) text = text.replaceAll(result.outputPath, "<outputPath>")
  return text.replaceAll(directory, "<directory>")
}

// Every set under both engines: the bun engine is opencode's own runtime (CI has the opencode
// binary installed for e2e), the node engine is tool-tester's loader.
const ENGINES = ["bun", "node"] as const

for (const [golden, engine] of goldens.flatMap((golden) =>
  ENGINES.filter((engine) => golden.engines?.includes(engine) ?? true).map((engine) => [golden, engine] as const),
)) {
  describe(`conformance with opencode ${golden.opencodeVersion}: ${golden.set} (${engine} engine)`, () => {
    for (const run of golden.runs) {
      // A run whose plugins call input.client starts a real opencode server: 90 s at load average
      // 20 on 2 cores, so a generous bound.
      test(`run ${run.name} matches`, { timeout: 300_000 }, async () => {
        const { directory, env, home } = probeCopy(golden.set, run.git)
        const config = run.config ? { config: run.config } : {}
        const project = await loadTools({ directory, env, home, engine, ...config })
        onTestFinished(() => closeProject(project))
        expect(project.engine.name).toBe(engine)
        const model = { npm: run.provider, providerID: "mock", modelID: run.model }
        const schemas = await getToolSchemas(project, { model })

        if (run.hung && run.calls.length === 0) {
          // opencode hung before its first request: a plugin awaited, during init, a client call
          // opencode answers only after init. tool-tester names it instead of hanging.
          expect(project.diagnostics.map((diagnostic) => diagnostic.code)).toContain("PLUGIN_INIT_HANGS")
          return
        }
        // The log line quotes the error: `error="Error: default agent \"explore\" is a subagent"`.
        const logged = run.errors.map((error) => error.message.replaceAll('\\"', '"'))
        const refusedAgent = logged.find((message) => message.includes('Error: default agent "'))
        if (run.toolNames === null && refusedAgent !== undefined) {
          // opencode refused the config's default_agent and failed the run before any request.
          const reason = /default agent "[^"]+" [a-z ]+/.exec(refusedAgent)?.[0]
          const problem = project.diagnostics.find((diagnostic) => diagnostic.data?.["key"] === "default_agent")
          expect(problem?.code).toBe("CONFIG_INVALID")
          expect(problem?.message).toContain(reason)
          return
        }
        if (run.toolNames === null) {
          // opencode never sent a request with tools: the tool list broke.
          expect(schemas.success).toBe(false)
          // A schema zod cannot express, or a plugin's tool.definition hook that breaks the list.
          expect(["SCHEMA_UNREPRESENTABLE", "PLUGIN_LOAD_FAILED"]).toContain(!schemas.success && schemas.error.code)
          return
        }
        expect(listTools(project, { model }).map((tool) => tool.id)).toEqual(run.toolNames)
        expect(schemas.success).toBe(true)
        if (!schemas.success) return
        const customNames = new Set(schemas.value.map((schema) => schema.name))
        const sentCustom = run.tools.map(sentTool).filter((tool) => customNames.has(String(tool.name)))
        expect(
          JSON.stringify(schemas.value.map(({ name, description, parameters }) => ({ name, description, parameters }))),
        ).toBe(JSON.stringify(sentCustom))

        const savedFiles: Array<{ bytes: number; sha256: string }> = []
        const escaped: string[] = []
        const dataDirectory = path.join(home, "data")
        const workingDirectory = process.cwd()
        process.chdir(directory)
        try {
          for (const [index, call] of run.calls.entries()) {
            if (!call.ran || BUILTINS.has(call.ran.name)) continue
            // A call opencode never finished (session.prompt of the running call's own session,
            // without noReply): tool-tester's server has no model, so the call ends at once with an
            // error instead (docs/fidelity.md#inputclient).
            if (run.hung && call.result === "") continue
            const result = await callTool(
              project,
              { name: call.called.name, rawArguments: call.called.arguments },
              // One session per run, as one `opencode run` is: the session hooks count on it.
              {
                model,
                dataDirectory,
                callID: `call_${index + 1}`,
                sessionID: `ses_conformance_${run.name}`,
                ...(run.agent === undefined ? {} : { agent: run.agent }),
              },
            )
            const label = `${call.called.name}(${call.called.arguments.slice(0, 60)})`
            expect(result.id, label).toBe(call.ran.name)
            const difference = DOCUMENTED_DIFFERENCES[`${golden.set}/${run.name}/${call.ran.name}`]
            if (difference === undefined)
              expect(modelVisible(result, directory), label).toBe(call.result && ownExpectation(call.result))
            expect(result.status, label).toBe(call.status)
            // A failed call's part has neither (docs/opencode-contract.md#failed-call-parts): the
            // golden records null for both.
            if (call.status === "error")
              expect([result.title, result.metadata], label).toEqual([call.title, call.metadata])
            if (call.status === "completed") {
              expect(result.title, label).toBe(call.title)
              const metadata = result.outputPath ? { ...result.metadata, outputPath: "<outputPath>" } : result.metadata
              expect(metadata, label).toEqual(call.metadata)
            }
            for (const error of result.escapedErrors ?? []) escaped.push(error.message.replace(/^\w+: /, ""))
            if (result.outputPath) {
              const saved = readFileSync(result.outputPath)
              savedFiles.push({ bytes: saved.length, sha256: createHash("sha256").update(saved).digest("hex") })
            }
          }
        } finally {
          process.chdir(workingDirectory)
        }
        expect(savedFiles).toEqual(run.toolOutputFiles)
        // An error that escaped a tool: opencode printed it on stderr (Bun's `error: <message>` line)
        // and went on; tool-tester lists it on the call it escaped from, or on the call running when
        // it escaped (docs/opencode-contract.md#escaped-errors).
        const printed = run.errors
          .filter((error) => error.source === "stderr" && error.message.startsWith("error: "))
          .map((error) => error.message.slice("error: ".length))
        expect(escaped.sort()).toEqual(printed.sort())
      })
    }
  })
}
