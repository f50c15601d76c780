// The Quick start demo: scaffold a tool with create-tool into a throw-away project, then look at it
// and at the bundled examples with tool-tester, as opencode 1.18.34 would see them.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const createTool = path.join(root, "packages", "create-tool", "bin.js")
const toolTester = path.join(root, "packages", "tool-tester", "bin.js")
const example = path.join(root, "examples", "basic")

mkdirSync(path.join(root, ".tmp"), { recursive: true })
const project = mkdtempSync(path.join(root, ".tmp", "demo-"))
let failed = false
try {
  step("Scaffold a tool named weather", createTool, ["weather", "--dir", project, "--no-interactive", "--no-test"])
  // opencode installs @opencode-ai/plugin into .opencode/node_modules; the demo links the workspace copy.
  const modules = path.join(project, ".opencode", "node_modules", "@opencode-ai")
  mkdirSync(modules, { recursive: true })
  symlinkSync(path.join(root, "packages", "plugin"), path.join(modules, "plugin"), "dir")
  step("The tools opencode offers in that project", toolTester, ["list", "--dir", project, "--no-global"])
  step("What the provider receives for it", toolTester, [
    "schema",
    "--dir",
    project,
    "--no-global",
    "--tool",
    "weather",
  ])
  step("Run it as the model would", toolTester, [
    "run",
    "weather",
    "--dir",
    project,
    "--no-global",
    "--args",
    '{"input":"hello"}',
  ])
  step("The bundled example, as a Gemini model sees it", toolTester, [
    "schema",
    "--dir",
    example,
    "--no-global",
    "--model",
    "gemini-2.5-pro",
    "--tool",
    "math_add",
  ])
  step("A call with key=value arguments", toolTester, [
    "run",
    "math_add",
    "--dir",
    example,
    "--no-global",
    "a=2",
    "b=40",
  ])
  step("A call in the wrong case, repaired by opencode", toolTester, [
    "run",
    "MATH_ADD",
    "--dir",
    example,
    "--no-global",
    "--raw-args",
    '{"a":1,"b":2}',
  ])
  step(
    "Arguments that are not JSON, rerouted to invalid (exit code 6)",
    toolTester,
    ["run", "math_add", "--dir", example, "--no-global", "--raw-args", "{not json"],
    6,
  )
  step("A tool that uses Bun's API (Bun.file, Bun.$), run in Bun as opencode runs it", toolTester, [
    "run",
    "line_count",
    "--dir",
    example,
    "--no-global",
    "file=.opencode/tools/math.ts",
  ])
  step("Why a tool would not work in opencode", toolTester, ["doctor", "--dir", example, "--no-global"])
} finally {
  rmSync(project, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)

function step(title, bin, args, expectedStatus = 0) {
  console.log(`\n=== ${title}\n$ ${path.basename(path.dirname(bin))} ${args.map(quote).join(" ")}`)
  const result = spawnSync(process.execPath, [bin, ...args], {
    stdio: "inherit",
    env: { ...process.env, FORCE_COLOR: "0" },
  })
  if (result.status !== expectedStatus) {
    console.log(`!!! exit code ${result.status}, expected ${expectedStatus}`)
    failed = true
  }
}

function quote(argument) {
  return /^[\w./=,:@-]+$/.test(argument) ? argument : `'${argument}'`
}
