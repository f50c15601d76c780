// `tool-tester run` on a TypeScript tool from a cold start (a new process), against `node` running
// the same tool precompiled to JavaScript, and against `tsx` running the TypeScript tool.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/cli-cold-start.ts [--rounds N]
// `--engine node` times the node engine's rows only (tool-tester run with --engine node, the
// precompiled node run, tsx), without the Bun rows. `--compare <path to another build's bin.js>`
// (repeatable) adds a row running that build as the first row runs this one (e.g. a copy of the
// build before a change), so both are measured side by side in the same rounds.
//
// Every variant is a new process that imports the tool (through @opencode-ai/plugin and zod),
// calls execute once and prints the output; the commands are timed interleaved, round after round,
// so load from other processes on this shared machine hits them alike; the median counts. Each
// variant runs once before timing, so compile caches are warm (tool-tester's and tsx's), as in an
// edit-run loop where the file did not change. A second table runs each variant with an empty
// temporary folder (TMPDIR), so both tool-tester and tsx compile the file again: informational.
//
// Two more rows measure the isolation choice on their own: a node process that runs the
// precompiled tool in a worker thread, and one that runs it in a child process.
//
// Targets (issue 32): `tool-tester run --engine node` at most 1.8x the precompiled node run, and
// faster than tsx; with opencode on PATH (the opencode binary this repository installs; the auto
// engine picks it, as Bun) at most 1.5x; `tool-tester --version` at most 1.2x `node -e 0`.
// tool-tester runs as a user's shell runs it: bin.js, a Node script, which starts
// the engine's process (Node or Bun) first thing. "bun alone" is that Bun running the TypeScript
// tool file with no tool-tester at all; "bun + the engine's modules" is that Bun loading what the
// built bun engine imports before it takes a task, without the tool. The floors are what a CLI
// started by Node or by Bun pays at the least: the runtime starting, the engine starting with its
// task ready, the runtime exiting at the answer.

import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build, transformSync } from "esbuild"
import { benchArgs } from "../../../bench/_args.mjs"
import { findBun } from "../src/engine-client/find-bun.ts"
import { median, ms } from "./_stats.ts"

const { values, count, fail } = benchArgs(import.meta.url, {
  rounds: { type: "string", default: "15" },
  engine: { type: "string" },
  compare: { type: "string", multiple: true },
})
const rounds = count("rounds")
if (values.engine !== undefined && values.engine !== "node")
  fail(`--engine takes "node" (the node engine's rows only), not "${values.engine}"`)
const nodeOnly = values.engine === "node"
const compared = (values.compare ?? []).map((file) => path.resolve(file))
for (const file of compared) if (!existsSync(file)) fail(`--compare: ${file} does not exist`)
/** A compared build's row: the folder that holds its bin.js. */
const comparedName = (file: string) => `  compared: ${path.basename(path.dirname(file))}`
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const bin = path.join(packageRoot, "bin.js")
if (!existsSync(path.join(packageRoot, "dist", "cli", "main.js"))) {
  console.error("Build first: npm run build")
  process.exit(1)
}

const expected = "Weather in Paris: sunny, 21 degrees"
const project = await createProject()
// tool-tester's cache (where bin.js's launcher reads which Bun it may start the CLI in) starts
// empty: the uncounted first round fills it, as a user's first run does.
const cacheHome = path.join(project, "cache")
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli")
const bun = nodeOnly ? { binary: "" } : findBun({ env: process.env, directory: packageRoot })
if (!bun) {
  console.error("No opencode or Bun found for the bun engine rows: install the repository's dependencies")
  process.exit(1)
}
/** The folder of the opencode binary this repository installs, put first on PATH (none for --engine node). */
const opencodeFolder = nodeOnly ? "" : path.dirname(bun.binary)
const runArgs = ["run", "weather", "--dir", project, "--no-global", "--json", "--args", '{"city":"Paris"}']

type Variant = {
  name: string
  command: string[]
  read?: (stdout: string) => string
  informational?: boolean
  bun?: boolean
}
const allVariants: Variant[] = [
  {
    name: "tool-tester run",
    command: [bin, ...runArgs, "--engine", "node"],
    read: (stdout) => (JSON.parse(stdout) as { output: string }).output,
  },
  ...compared.map((file) => ({
    name: comparedName(file),
    command: [file, ...runArgs, "--engine", "node"],
    read: (stdout: string) => (JSON.parse(stdout) as { output: string }).output,
    informational: true,
  })),

  {
    // As a user with opencode installed runs it: no engine flag, opencode found on PATH.
    name: "tool-tester run, bun engine",
    bun: true,
    command: [bin, ...runArgs],
    read: (stdout) => (JSON.parse(stdout) as { output: string }).output,
  },
  ...compared.map((file) => ({
    name: `${comparedName(file)}, bun engine`,
    bun: true,
    command: [file, ...runArgs],
    read: (stdout: string) => (JSON.parse(stdout) as { output: string }).output,
    informational: true,
  })),

  {
    name: "bun alone (TypeScript)",
    bun: true,
    command: [bun.binary, path.join(project, "run-typescript.ts")],
    informational: true,
  },
  {
    // What the bun engine's process loads before it can take a task (its bundle's modules, zod
    // among them), without the tool: with "bun alone", how much of the floor is the engine's own.
    name: "bun + the engine's modules",
    bun: true,
    command: [bun.binary, path.join(project, "engine-modules.mjs")],
    informational: true,
  },
  {
    name: "floor: node + bun engine",
    bun: true,
    command: [process.execPath, path.join(project, "engine-floor.mjs"), bun.binary, project],
    informational: true,
  },
  {
    name: "floor: bun + bun engine",
    bun: true,
    command: [bun.binary, path.join(project, "engine-floor.mjs"), bun.binary, project],
    informational: true,
  },
  { name: "node (precompiled JS)", command: [process.execPath, path.join(project, "run-precompiled.mjs")] },
  { name: "tool-tester --version", command: [bin, "--version"], read: () => expected },
  ...compared.map((file) => ({
    name: `${comparedName(file)}, --version`,
    command: [file, "--version"],
    read: () => expected,
    informational: true,
  })),
  { name: "node -e 0", command: [process.execPath, "-e", "0"], read: () => expected },
  { name: "tsx", command: [process.execPath, tsxCli, path.join(project, "run-typescript.ts")] },
  {
    name: "node --import tsx",
    command: [process.execPath, "--import", "tsx", path.join(project, "run-typescript.ts")],
    informational: true,
  },
  {
    name: "isolation: worker thread",
    command: [process.execPath, path.join(project, "in-worker.mjs")],
    informational: true,
  },
  {
    name: "isolation: child process",
    command: [process.execPath, path.join(project, "in-child.mjs")],
    informational: true,
  },
]
const variants = nodeOnly ? allVariants.filter((variant) => !variant.bun) : allVariants

try {
  console.log(`Cold start of one tool call, median of ${rounds} interleaved rounds (Node ${process.version})\n`)
  const warm = measure(variants, {})
  print(warm)
  const precompiled = warm.get("node (precompiled JS)")!
  const toolTester = warm.get("tool-tester run")!
  const tsx = warm.get("tsx")!
  const ratio = toolTester / precompiled
  console.log()
  console.log(
    `${ratio <= 1.8 ? "PASS" : "FAIL"}  tool-tester run --engine node is ${ratio.toFixed(2)}x the precompiled node run (target: at most 1.8x)`,
  )
  if (!nodeOnly) {
    const bunRatio = warm.get("tool-tester run, bun engine")! / precompiled
    console.log(
      `${bunRatio <= 1.5 ? "PASS" : "FAIL"}  tool-tester run with opencode on PATH (bun engine) is ${bunRatio.toFixed(2)}x the precompiled node run (target: at most 1.5x)`,
    )
  }
  const versionRatio = warm.get("tool-tester --version")! / warm.get("node -e 0")!
  console.log(
    `${versionRatio <= 1.2 ? "PASS" : "FAIL"}  tool-tester --version is ${versionRatio.toFixed(2)}x node -e 0 (target: at most 1.2x)`,
  )
  console.log(
    `${toolTester < tsx ? "PASS" : "FAIL"}  tool-tester run ${toolTester < tsx ? "is faster than" : "is not faster than"} tsx (${ms(toolTester)} vs ${ms(tsx)})`,
  )

  console.log(
    `\nWith empty compile caches (a fresh TMPDIR per run; informational), median of ${Math.max(3, Math.floor(rounds / 3))}:\n`,
  )
  const coldRounds = Math.max(3, Math.floor(rounds / 3))
  print(
    measure(
      variants.filter((variant) =>
        ["tool-tester run", ...compared.map(comparedName), "node (precompiled JS)", "tsx"].includes(variant.name),
      ),
      { freshTmp: true, rounds: coldRounds },
    ),
  )
} finally {
  rmSync(project, { recursive: true, force: true })
}

// --- internal ---

function measure(list: Variant[], options: { freshTmp?: boolean; rounds?: number }): Map<string, number> {
  const times = new Map<string, number[]>(list.map((variant) => [variant.name, []]))
  const count = options.rounds ?? rounds
  for (let round = -1; round < count; round++) {
    for (const variant of list) {
      const tmp = options.freshTmp ? mkdtempSync(path.join(project, "tmp-")) : undefined
      // The bin decides for itself how to start (bin.js), as it does for a user: BUN_BE_BUN only for the rest.
      const env = {
        ...process.env,
        // opencode on PATH, as where a user has it installed: the auto engine finds it there.
        PATH: `${opencodeFolder}${path.delimiter}${process.env["PATH"] ?? ""}`,
        XDG_CACHE_HOME: cacheHome,
        ...(variant.command[0] === bin || compared.includes(variant.command[0]!) ? {} : { BUN_BE_BUN: "1" }),
        ...(tmp ? { TMPDIR: tmp } : {}),
      }
      const started = performance.now()
      const child = spawnSync(variant.command[0]!, variant.command.slice(1), { cwd: project, env, encoding: "utf8" })
      const elapsed = performance.now() - started
      if (tmp) rmSync(tmp, { recursive: true, force: true })
      const output = (variant.read ?? ((stdout: string) => stdout.trim()))(child.stdout)
      if (child.status !== 0 || output !== expected) {
        throw new Error(`${variant.name} failed (exit ${child.status}): ${child.stdout}\n${child.stderr}`)
      }
      // Round -1 warms the caches and is not counted.
      if (round >= 0) times.get(variant.name)!.push(elapsed)
    }
  }
  return new Map([...times].map(([name, list]) => [name, median(list)]))
}

function print(medians: Map<string, number>): void {
  const base = medians.get("node (precompiled JS)")!
  for (const [name, value] of medians) {
    const informational = variants.find((variant) => variant.name === name)?.informational ? "  (informational)" : ""
    console.log(`  ${name.padEnd(28)} ${ms(value).padStart(8)}  ${(value / base).toFixed(2)}x${informational}`)
  }
}

/** A project inside the package, so the tool resolves @opencode-ai/plugin and zod from its node_modules. */
async function createProject(): Promise<string> {
  const root = path.join(packageRoot, ".tmp")
  mkdirSync(root, { recursive: true })
  const directory = mkdtempSync(path.join(root, "bench-cold-start-"))
  mkdirSync(path.join(directory, ".git"))
  mkdirSync(path.join(directory, ".opencode", "tools"), { recursive: true })
  const toolSource = `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Tells the weather in a city",
  args: { city: tool.schema.string().describe("The city"), unit: tool.schema.enum(["c", "f"]).optional() },
  async execute(args: { city: string; unit?: "c" | "f" }) {
    const degrees: number = 21
    return \`Weather in \${args.city}: sunny, \${degrees} degrees\`
  },
})
`
  const toolFile = path.join(directory, ".opencode", "tools", "weather.ts")
  writeFileSync(toolFile, toolSource)
  writeFileSync(
    path.join(directory, "weather.mjs"),
    transformSync(toolSource, { loader: "ts", format: "esm", target: "node20" }).code,
  )
  const call = `const context = { sessionID: "ses", messageID: "msg", callID: "call", agent: "build", directory: process.cwd(), worktree: process.cwd(), abort: new AbortController().signal, extra: {}, messages: [], metadata() {}, async ask() {} }
console.log(await tool.execute({ city: "Paris" }, context))`
  writeFileSync(
    path.join(directory, "run-precompiled.mjs"),
    `const tool = (await import("./weather.mjs")).default\n${call}\n`,
  )
  writeFileSync(
    path.join(directory, "run-typescript.ts"),
    `const tool = (await import("./.opencode/tools/weather.ts")).default\n${call}\n`,
  )
  writeFileSync(
    path.join(directory, "in-worker.mjs"),
    `import { Worker } from "node:worker_threads"\nconst worker = new Worker(new URL("./run-precompiled.mjs", import.meta.url), { stdout: true })\nlet text = ""\nworker.stdout.on("data", (chunk) => (text += chunk))\nworker.on("exit", () => process.stdout.write(text))\n`,
  )
  // The floor of any CLI with the bun engine: the runtime starts, starts the engine with the task
  // ready through the product's own Node side, and exits at its answer (bench/_engine-floor.ts).
  // Bundled as the CLI is (scripts/bundle.mjs), with the module that finds the built engines taken
  // from the build, so the engine it starts is the one tool-tester starts.
  await build({
    entryPoints: [path.join(packageRoot, "bench", "_engine-floor.ts")],
    outfile: path.join(directory, "engine-floor.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    logLevel: "warning",
    plugins: [
      {
        name: "runtime-files-from-the-build",
        setup(context) {
          context.onResolve({ filter: /runtime-files\.ts$/ }, () => ({
            path: pathToFileURL(path.join(packageRoot, "dist", "runtime", "runtime-files.js")).href,
            external: true,
          }))
        },
      },
    ],
  })
  // The modules the built bun engine imports before it says it is ready (bun-serve.js's static
  // imports), then the answer every row prints.
  const engineEntry = path.join(packageRoot, "dist", "engine", "bun-serve.js")
  const engineImports = [...readFileSync(engineEntry, "utf8").matchAll(/^(?:import\s*|\}\s*from\s*)"([^"]+)";?$/gm)]
    .map((match) => match[1]!)
    .map((specifier) =>
      specifier.startsWith(".") ? pathToFileURL(path.join(path.dirname(engineEntry), specifier)).href : specifier,
    )
  writeFileSync(
    path.join(directory, "engine-modules.mjs"),
    `${engineImports.map((specifier) => `import ${JSON.stringify(specifier)}`).join("\n")}\nconsole.log(${JSON.stringify(expected)})\n`,
  )
  writeFileSync(
    path.join(directory, "in-child.mjs"),
    `import { execFileSync } from "node:child_process"\nprocess.stdout.write(execFileSync(process.execPath, [new URL("./run-precompiled.mjs", import.meta.url).pathname]))\n`,
  )
  writeFileSync(path.join(directory, "package.json"), `{ "type": "module" }\n`)
  return directory
}
