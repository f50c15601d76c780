import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { binFile, cleanEnvironment, useTmpDir } from "./helpers.ts"

// The questions in a real terminal: util-linux `script` gives the bin a pseudo-terminal, and keys
// are typed when the expected question shows.

const hasScript = process.platform === "linux" && existsSync("/usr/bin/script")

type Step = { when: string; keys: string }

function runInTerminal(args: string[], cwd: string, steps: Step[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, binFile, ...args].map((word) => `'${word}'`).join(" ")
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd,
      env: { ...cleanEnvironment(), TERM: "xterm", COLUMNS: "150", LINES: "40" },
    })
    let output = ""
    const pending = [...steps]
    const timer = setTimeout(() => {
      child.kill()
      reject(new Error(`Timed out; output so far:\n${output}`))
    }, 30_000)
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      while (pending[0] !== undefined && output.includes(pending[0].when)) {
        const step = pending.shift()!
        setTimeout(() => child.stdin.write(step.keys), 100)
      }
    })
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

const enter = "\r"
const down = "\u001b[B"

test.skipIf(!hasScript)("answers every question in a terminal, then writes the tool", async () => {
  const cwd = useTmpDir()
  const { code, output } = await runInTerminal([], cwd, [
    { when: "Where should the tool go?", keys: enter },
    { when: "Tool name", keys: `weather${enter}` },
    { when: "Template:", keys: `${down}${enter}` },
    { when: "Language:", keys: enter },
    { when: "Named exports", keys: `now${enter}` },
    { when: "Description", keys: enter },
    { when: "Add a test", keys: enter },
  ])
  expect(output).toContain("✔ Created tool weather (python template, TypeScript) in .opencode")
  expect(output).toMatch(/Tool ids opencode will see:\r?\n {2}weather_now/)
  expect(code).toBe(0)
  expect(readdirSync(join(cwd, ".opencode/tools")).sort()).toEqual(["weather.ts", "weather_now.py"])
})

test.skipIf(!hasScript)("Ctrl-C at a question writes nothing and exits cleanly", async () => {
  const cwd = useTmpDir()
  const { code, output } = await runInTerminal(["weather"], cwd, [
    { when: "Where should the tool go?", keys: enter },
    { when: "Template:", keys: "\u0003" },
  ])
  expect(output).toContain("✖ Operation cancelled")
  expect(output).not.toMatch(/\n\s+at /) // no stack trace
  expect(code).toBe(0)
  expect(readdirSync(cwd)).toEqual([])
})

test.skipIf(!hasScript)("asks before overwriting, listing the files", async () => {
  const cwd = useTmpDir()
  const args = ["hello", "-t", "default", "--js", "--exports", "a", "--description", "d", "--no-test"]
  const steps = [{ when: "Where should the tool go?", keys: enter }]
  expect((await runInTerminal(args, cwd, steps)).code).toBe(0)
  const { output } = await runInTerminal(args, cwd, [...steps, { when: "Overwrite?", keys: `y${enter}` }])
  expect(output).toContain(".opencode/tools/hello.js exists already. Overwrite?")
  expect(output).toContain("overwritten .opencode/tools/hello.js")
})

test.skipIf(!hasScript)("asks before replacing a built-in tool, and a no writes nothing", async () => {
  const cwd = useTmpDir()
  const { code, output } = await runInTerminal(["bash", "--js", "--exports", "", "--no-test"], cwd, [
    { when: "Where should the tool go?", keys: enter },
    { when: "Template:", keys: enter },
    { when: "Named exports", keys: enter },
    { when: "Description", keys: enter },
    { when: "Replace it?", keys: enter },
  ])
  expect(output).toContain("bash would replace opencode's built-in tool of that name. Replace it?")
  expect(output).toContain("✖ Operation cancelled")
  expect(code).toBe(0)
  expect(readdirSync(cwd)).toEqual([])
})

test.skipIf(!hasScript)("a plugin asks for its tool id, offering the package name without opencode-", async () => {
  const cwd = useTmpDir()
  const args = ["@me/opencode-weather", "--plugin", "-t", "default", "--js", "--description", "d", "--no-test"]
  const { code, output } = await runInTerminal(args, cwd, [
    { when: "Tool name (the tool id the model sees)", keys: enter },
    { when: "Named exports", keys: enter },
  ])
  expect(output).toMatch(/Tool name \(the tool id the model sees\).*weather/)
  expect(output).toMatch(/Tool ids opencode will see:\r?\n {2}weather\r?\n/)
  expect(code).toBe(0)
})

test.skipIf(!hasScript)("a second file for one tool id is refused before any confirmation", async () => {
  const cwd = useTmpDir()
  mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
  writeFileSync(join(cwd, ".opencode/tools/bash.js"), "export default {}")
  const { code, output } = await runInTerminal(["bash", "-t", "default", "--exports", "", "--no-test"], cwd, [
    { when: "Where should the tool go?", keys: enter },
    { when: "Language:", keys: enter },
    { when: "Named exports", keys: enter },
    { when: "Description", keys: enter },
  ])
  expect(output).not.toContain("Replace it?")
  expect(output).toContain("bash.js already gives tool id bash")
  expect(output).toContain("[DUPLICATE_TOOL_ID]")
  expect(code).toBe(1)
  expect(readdirSync(join(cwd, ".opencode/tools"))).toEqual(["bash.js"])
})
