import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, test } from "vitest"
import { useTmpDir } from "../install/_run.ts"

const argsModule = pathToFileURL(path.resolve(import.meta.dirname, "../../bench/_args.mjs")).href

/** Runs a bench script that takes --rounds (a count) and --name, printing what it parsed. */
function bench(args: string[], { positionals = false } = {}) {
  const script = path.join(useTmpDir("bench-args-"), "rounds.mjs")
  writeFileSync(
    script,
    [
      "// What this bench measures.",
      "//",
      "//   node rounds.mjs [--rounds N]",
      `import { benchArgs } from ${JSON.stringify(argsModule)}`,
      "// Not part of the help.",
      `const { values, positionals, count } = benchArgs(import.meta.url, { rounds: { type: "string", default: "3" }, name: { type: "string" } }, { positionals: ${positionals} })`,
      `console.log(JSON.stringify({ rounds: count("rounds"), name: values.name, positionals }))`,
    ].join("\n"),
  )
  const result = spawnSync(process.execPath, [script, ...args], { encoding: "utf8" })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

// Each case starts Node once or several times: a loaded machine takes seconds for that, so the
// cases get a generous bound of their own rather than vitest's default 5 s.
describe("a bench script's command line (bench/_args.mjs)", { timeout: 60_000 }, () => {
  test("--help prints the script's opening comment and exits 0 without running it", () => {
    const result = bench(["--help"])
    expect(result).toEqual({
      status: 0,
      stdout: "What this bench measures.\n\n  node rounds.mjs [--rounds N]\n",
      stderr: "",
    })
    expect(bench(["-h"]).stdout).toContain("What this bench measures.")
  })

  test("the options it takes are parsed, with their defaults", () => {
    expect(JSON.parse(bench([]).stdout)).toEqual({ rounds: 3, positionals: [] })
    expect(JSON.parse(bench(["--rounds", "7", "--name=x"]).stdout)).toEqual({ rounds: 7, name: "x", positionals: [] })
  })

  test("an option it does not take, a missing value or a stray argument: one line naming the script, exit 2", () => {
    for (const [args, said] of [
      [["--round", "7"], "rounds: Unknown option '--round'; --help lists what it takes"],
      [["--rounds"], "rounds: Option '--rounds <value>' argument missing; --help lists what it takes"],
      [["extra"], "rounds: Unexpected argument 'extra'; --help lists what it takes"],
    ] as const) {
      expect(bench([...args])).toEqual({ status: 2, stdout: "", stderr: `${said}\n` })
    }
  })

  test("a count is a whole number above 0: NaN, zero, fractions and signs are refused", () => {
    for (const value of ["abc", "0", "1.5", "-2", " "]) {
      expect(bench([`--rounds=${value}`])).toEqual({
        status: 2,
        stdout: "",
        stderr: `rounds: --rounds takes a whole number above 0, not ${JSON.stringify(value)}\n`,
      })
    }
  })

  test("after --, arguments go to the script's positionals, --help among them", () => {
    const result = bench(["--rounds", "2", "--", "--help", "x"], { positionals: true })
    expect(JSON.parse(result.stdout)).toEqual({ rounds: 2, positionals: ["--help", "x"] })
  })
})
