// What a warm engine adds to each runTool call over the tool's own time: the bun engine (a Bun
// process of the project's own, reached over its channel: stdin and fd 3) beside the node engine (the tools in this
// process), through the library.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/engine-warm-call.ts [--calls N]
//
// One throw-away project with one TypeScript tool made with tool(): it does a small fixed amount of
// work, times its own execute with performance.now(), and returns that time and its process id as
// JSON. The project is loaded once with each engine; each is warmed with a few calls, then N calls
// (default 200) of runTool go to the two engines interleaved, call after call, first one engine
// then the other, so load from other processes on this shared machine hits them alike. Per call:
// the wall time of runTool seen from here minus the time the tool reports = the engine's overhead
// (the pipeline, and for the bun engine the channel's round trip and JSON both ways). Median and p90 count.
//
// Target: a warm bun engine adds at most 3 ms per runTool call over the tool's own time. The node
// engine's figure is the comparison (informational). Check: every bun call reports one process
// id, not this process's: the engine started once and was reused.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import type { ToolProject } from "../src/index.ts"
import { closeProject, loadTools, runTool } from "../src/index.ts"
import { ms as milliseconds, quantile } from "./_stats.ts"

const ms = (value: number) => milliseconds(value, 2)

const calls = benchArgs(import.meta.url, { calls: { type: "string", default: "200" } }).count("calls")
const warmCalls = 20
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

type Engine = "bun" | "node"
const engines: Engine[] = ["bun", "node"]
type Sample = { wall: number; tool: number; pid: number }

const directory = createProject()
const projects = new Map<Engine, ToolProject>()
try {
  for (const engine of engines) {
    const project = await loadTools({ directory, global: false, engine })
    if (project.engine.name !== engine) throw new Error(`asked for the ${engine} engine, got ${project.engine.name}`)
    if (!project.tools.some((tool) => tool.id === "work")) {
      throw new Error(`the ${engine} engine did not load the tool: ${JSON.stringify(project.diagnostics)}`)
    }
    projects.set(engine, project)
  }
  const bun = projects.get("bun")!.engine
  console.log(
    `runTool on a warm engine, ${calls} calls each after ${warmCalls} warm-up calls, interleaved (Node ${process.version}; bun engine: bun ${bun.version}, ${bun.binary})\n`,
  )
  for (let call = 0; call < warmCalls; call++) for (const engine of engines) await time(engine, call)
  const samples = new Map<Engine, Sample[]>(engines.map((engine) => [engine, []]))
  for (let call = 0; call < calls; call++) {
    const order = call % 2 === 0 ? engines : [...engines].reverse()
    for (const engine of order) samples.get(engine)!.push(await time(engine, call))
  }

  const widths = [6, 15, 12, 11, 8, 11, 8]
  const row = (cells: string[]) => `  ${cells.map((cell, index) => cell.padStart(widths[index]!)).join("   ")}`
  console.log(row(["engine", "overhead median", "overhead p90", "wall median", "wall p90", "tool median", "tool p90"]))
  for (const engine of engines) {
    const list = samples.get(engine)!
    const overhead = list.map((sample) => sample.wall - sample.tool)
    const wall = list.map((sample) => sample.wall)
    const tool = list.map((sample) => sample.tool)
    console.log(
      row([
        engine.padEnd(6),
        ms(quantile(overhead, 0.5)),
        ms(quantile(overhead, 0.9)),
        ms(quantile(wall, 0.5)),
        ms(quantile(wall, 0.9)),
        ms(quantile(tool, 0.5)),
        ms(quantile(tool, 0.9)),
      ]),
    )
  }
  const bunOverhead = quantile(
    samples.get("bun")!.map((sample) => sample.wall - sample.tool),
    0.5,
  )
  const nodeOverhead = quantile(
    samples.get("node")!.map((sample) => sample.wall - sample.tool),
    0.5,
  )
  const bunPids = new Set(samples.get("bun")!.map((sample) => sample.pid))
  const nodePids = new Set(samples.get("node")!.map((sample) => sample.pid))
  console.log()
  console.log(
    `${bunOverhead <= 3 ? "PASS" : "FAIL"}  a warm bun engine adds ${ms(bunOverhead)} per runTool call over the tool's own time (target: at most 3 ms; the node engine adds ${ms(nodeOverhead)})`,
  )
  const onePid = bunPids.size === 1 && !bunPids.has(process.pid)
  console.log(
    `${onePid ? "PASS" : "FAIL"}  ${bunPids.size} bun engine process${bunPids.size === 1 ? "" : "es"} answered ${calls} calls (pid ${[...bunPids].join(", ")}; this process is ${process.pid}; target: one, reused)`,
  )
  const inProcess = nodePids.size === 1 && nodePids.has(process.pid)
  console.log(
    `${inProcess ? "PASS" : "FAIL"}  the node engine ran every call in this process (pid ${[...nodePids].join(", ")})`,
  )
} finally {
  for (const project of projects.values()) closeProject(project)
  rmSync(directory, { recursive: true, force: true })
}

// --- internal ---

async function time(engine: Engine, call: number): Promise<Sample> {
  const started = performance.now()
  const result = await runTool(projects.get(engine)!, "work", { seed: call })
  const wall = performance.now() - started
  if (result.status !== "completed") throw new Error(`the ${engine} engine's call failed: ${result.output}`)
  const reported = JSON.parse(result.output) as { pid: number; ms: number; sum: number }
  return { wall, tool: reported.ms, pid: reported.pid }
}

/** A project inside the package, so the tool resolves @opencode-ai/plugin and zod from its node_modules. */
function createProject(): string {
  const root = path.join(packageRoot, ".tmp")
  mkdirSync(root, { recursive: true })
  const project = mkdtempSync(path.join(root, "bench-warm-call-"))
  mkdirSync(path.join(project, ".git"))
  mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
  writeFileSync(
    path.join(project, ".opencode", "tools", "work.ts"),
    `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Does a small fixed amount of work and reports how long it took",
  args: { seed: tool.schema.number().int().describe("Varies the input") },
  async execute(args: { seed: number }) {
    const started: number = performance.now()
    let sum = 0
    for (let index = 0; index < 20_000; index++) sum = (sum + Math.sqrt(index + args.seed)) % 1_000_003
    const ms: number = performance.now() - started
    return JSON.stringify({ pid: process.pid, ms, sum })
  },
})
`,
  )
  return project
}
