import { describe, expect, test } from "vitest"
import { fixture, jsonError, runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

const findingsProject = fixture("doctor-findings")
const tools = `${findingsProject}/.opencode/tools`

type Finding = { code: string; severity: "error" | "warning"; file: string | null; message: string }

/** doctor --json run from the project folder under one engine: its exit code, stderr and findings. */
const doctorUnder = async (directory: string, engine: string) => {
  const result = await runCli(["doctor", "--no-global", "--json", "--engine", engine], { cwd: directory })
  return { ...result, findings: (JSON.parse(result.stdout) as { findings: Finding[] }).findings }
}

const doctor = async (directory: string) => {
  const result = await runCli(["doctor", "--dir", directory, "--no-global", "--json"])
  return { ...result, findings: (JSON.parse(result.stdout) as { findings: Finding[] }).findings }
}

describe("tool-tester doctor", { timeout: 60_000 }, () => {
  test("a project without problems exits 0 and says so", async () => {
    const result = await runCli(["doctor", "--no-global"], { cwd: fixture("cli-basic") })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe("No problems found (2 tool files, 2 tools).\n")
    const json = await doctor(fixture("cli-basic"))
    expect(json.findings).toEqual([])
  })

  test.each(["bun", "node"])(
    "a result opencode cannot send (a number, an object without output) is an error, found by one call (%s engine)",
    async (engine) => {
      const returning = (value: string, args = "{}") => `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Returns", args: ${args}, async execute(args) { return ${value} } })
`
      const directory = tmpProject({
        ".opencode/tools/count.ts": returning("args.city.length", "{ city: tool.schema.string() }"),
        ".opencode/tools/titled.ts": returning('{ title: "only a title" }'),
        ".opencode/tools/fine.ts": returning('{ output: "text", title: "t" }'),
        ".opencode/tools/throws.ts": returning('(() => { throw new Error("needs a real city") })()'),
      })
      const { exitCode, stderr, findings } = await doctorUnder(directory, engine)
      expect(exitCode, stderr).toBe(3)
      expect(findings.map((finding) => [finding.code, finding.severity, finding.file?.split("/").at(-1)])).toEqual([
        ["BAD_RESULT", "error", "count.ts"],
        ["BAD_RESULT", "error", "titled.ts"],
      ])
      expect(findings[0]!.message).toContain('count called with {"city":"example"}: execute returned a number')
    },
  )

  test.each(["bun", "node"])(
    "an error that escapes that call is a warning, as opencode prints it and goes on (%s engine)",
    async (engine) => {
      const directory = tmpProject({
        ".opencode/tools/leaves.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Leaves a rejection", args: {}, async execute() { Promise.reject(new Error("nobody awaits this")); return "ok" } })
`,
      })
      const { exitCode, stderr, findings } = await doctorUnder(directory, engine)
      expect(exitCode, stderr).toBe(0)
      expect(findings).toEqual([
        {
          code: "ESCAPED_ERROR",
          severity: "warning",
          file: expect.stringMatching(/leaves\.ts$/),
          message: expect.stringContaining(
            "leaves called with {}: Error: nobody awaits this escaped it (a promise the tool left to reject); opencode prints it on stderr and keeps the call's result: await it or add a .catch",
          ),
          data: { tool: "leaves", args: {}, kind: "unhandledRejection" },
        },
      ])
    },
  )

  test.each(["bun", "node"])(
    "a tool that ends its process when called is ENDS_OPENCODE, naming its file as the other findings do (%s engine)",
    async (engine) => {
      const directory = tmpProject({
        ".opencode/tools/quits.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Quits", args: {}, async execute() { process.exit(2) } })
`,
      })
      const { exitCode, stderr, findings } = await doctorUnder(directory, engine)
      expect(exitCode, stderr).toBe(3)
      expect(findings).toMatchObject([
        {
          code: "ENDS_OPENCODE",
          severity: "error",
          file: expect.stringMatching(/[\\/]\.opencode[\\/]tools[\\/]quits\.ts$/),
        },
      ])
      const human = await runCli(["doctor", "--no-global", "--engine", engine], { cwd: directory })
      expect(human.stdout).toContain(".opencode/tools/quits.ts")
    },
  )

  test("--json prints the findings as {code, severity, file, message}, and exit 3 when one is an error", async () => {
    const result = await doctor(findingsProject)
    expect(result.exitCode).toBe(3)
    for (const finding of result.findings) {
      expect(Object.keys(finding).slice(0, 4)).toEqual(["code", "severity", "file", "message"])
    }
    // Errors come first.
    const severities = result.findings.map((finding) => finding.severity)
    expect(severities).toEqual([...severities].sort())
    expect(jsonError(result).code).toBe("IMPORT_FAILED")
  })

  test("without --json prints one line per finding, with the file relative to the working directory", async () => {
    const result = await runCli(["doctor", "--no-global"], { cwd: findingsProject })
    const lines = result.stdout.trim().split("\n")
    expect(lines.at(-1)).toMatch(/^3 errors, 14 warnings \(13 tool files, 10 tools\)\.$/)
    expect(lines.slice(0, -1)).toHaveLength(17)
    for (const line of lines.slice(0, -1))
      expect(line).toMatch(/^(✖ error|⚠ warning) {1,3}\.opencode\/tools\/\S+: .+ \[[A-Z0-9_]+\]$/)
  })

  const cases: Array<[string, string, "error" | "warning", RegExp]> = [
    [
      "IMPORT_FAILED",
      "needs_package.ts",
      "error",
      /Cannot find package 'tool-tester-fixture-missing-package'.*install it: npm install --prefix \.opencode tool-tester-fixture-missing-package$/,
    ],
    ["IGNORED_EXPORT", "half_tool.ts", "warning", /export lookup is ignored by opencode: it has no execute/],
    ["IGNORED_FILE", "legacy.mjs", "warning", /only \.ts and \.js files .* rename it to legacy\.js/],
    ["TEST_FILE_IN_TOOLS", "greet.spec.ts", "warning", /opencode imports this test file as a tool file/],
    [
      "NO_TOOLS",
      "greet.spec.ts",
      "warning",
      /none of its exports is a tool; opencode imports the file and offers nothing from it/,
    ],
    [
      "NON_ZOD_ARGS",
      "plain_args.ts",
      "warning",
      /query \(a string\) is silently dropped.*limit is sent verbatim as JSON Schema/,
    ],
    [
      "ZOD3_SCHEMA",
      "old_zod.ts",
      "error",
      /city, days are zod 3 schemas.*"_def".*instead of \{"type":"object","properties":\{"city":\{"type":"string","description":"The city"\}/,
    ],
    ["SCHEMA_UNREPRESENTABLE", "when.ts", "error", /Date cannot be represented in JSON Schema \(argument "at"\)/],
    ["DANGLING_REF", "tree.ts", "warning", /\$refs that point nowhere \(#\/\$defs\/__schema0\)/],
    ["DEFAULT_NOT_APPLIED", "parsed_args.ts", "warning", /^tool parsed_args: limit relies on \.default\(\)/],
    ["TRANSFORM_NOT_APPLIED", "parsed_args.ts", "warning", /^tool parsed_args: name relies on \.transform\(\)/],
    ["COERCE_NOT_APPLIED", "parsed_args.ts", "warning", /^tool parsed_args: count uses z\.coerce/],
    ["REFINE_NOT_CHECKED", "parsed_args.ts", "warning", /^tool parsed_args: even relies on \.refine\(\)/],
    [
      "TOOL_NAME_REJECTED",
      "web.search.ts",
      "warning",
      /tool name "web\.search" has "\.", which OpenAI and Anthropic reject.*web_search$/,
    ],
    [
      "TOOL_COLLISION",
      "collide_add.ts",
      "warning",
      /tool id collide_add is defined 2 times .*collide\.ts \(export add\).*either may win/,
    ],
    ["BUILTIN_OVERRIDE", "glob.ts", "warning", /tool glob replaces opencode's built-in glob/],
    ["SECOND_ZOD_COPY", "other_zod.ts", "warning", /2 zod copies: zod 4\.1\.8 \(.*\), zod 4\.0\.0 \(other_zod\.ts\)/],
  ]
  // One doctor run for every case: the same command on the same fixture, read by each.
  let projectFindings: Promise<Finding[]> | undefined
  const findingsOfProject = () =>
    (projectFindings ??= runCli(["doctor", "--no-global", "--json"], { cwd: findingsProject }).then(
      (result) => (JSON.parse(result.stdout) as { findings: Finding[] }).findings,
    ))
  test.each(cases)("reports %s for %s", async (code, file, severity, message) => {
    const findings = (await findingsOfProject()).filter((finding) => finding.code === code)
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ severity, file: `${tools}/${file}` })
    expect(findings[0]!.message).toMatch(message)
  })

  test("reports an opencode.json that cannot be parsed as CONFIG_INVALID, exit 3", async () => {
    const result = await doctor(fixture("broken-config"))
    expect(result.exitCode).toBe(3)
    expect(result.findings).toMatchObject([
      { code: "CONFIG_INVALID", severity: "error", file: `${fixture("broken-config")}/.opencode/opencode.json` },
    ])
  })

  test.each(["bun", "node"])(
    'reports a tool_output limit opencode refuses (0, -1, "2", 1.5) as CONFIG_INVALID, exit 3 (%s engine)',
    async (engine) => {
      const cases = [
        ["tool-output-zero", "tool_output.max_lines is 0"],
        ["tool-output-negative", "tool_output.max_bytes is -1"],
        ["tool-output-string", 'tool_output.max_lines is "2"'],
        ["tool-output-fraction", "tool_output.max_bytes is 1.5"],
      ]
      for (const [name, said] of cases) {
        const directory = fixture(`hostile/${name}`)
        const result = await runCli(["doctor", "--dir", directory, "--no-global", "--json", "--engine", engine!])
        expect(result.exitCode).toBe(3)
        const findings = (JSON.parse(result.stdout) as { findings: Finding[] }).findings
        expect(findings).toEqual([
          {
            code: "CONFIG_INVALID",
            severity: "error",
            file: `${directory}/opencode.json`,
            message: expect.stringContaining(`${said}, but opencode requires a whole number greater than 0`),
          },
        ])
        const human = await runCli(["doctor", "--no-global", "--engine", engine!], { cwd: directory })
        expect(human.exitCode).toBe(3)
        expect(human.stdout).toContain(`✖ error   opencode.json: ${said}, but opencode requires`)
      }
    },
  )

  test.each(["bun", "node"])(
    "reports a symbolic link loop in tools/ (a.ts -> b.ts -> a.ts) as IMPORT_FAILED with what to do (%s engine)",
    async (engine) => {
      const directory = fixture("hostile/symlink-loop-files")
      const result = await runCli(["doctor", "--dir", directory, "--no-global", "--json", "--engine", engine])
      expect(result.exitCode).toBe(3)
      const findings = (JSON.parse(result.stdout) as { findings: Finding[] }).findings
      expect(findings).toEqual(
        [
          ["a.ts", "a.ts -> b.ts -> a.ts"],
          ["b.ts", "b.ts -> a.ts -> b.ts"],
        ].map(([name, chain]) => ({
          code: "IMPORT_FAILED",
          severity: "error",
          file: `${directory}/.opencode/tools/${name}`,
          message: expect.stringMatching(
            new RegExp(
              `^failed to import: .*ELOOP.*; it is a symbolic link loop \\(${chain!.replaceAll(".", "\\.")}\\), which nothing can import, opencode included, and opencode then offers no tool at all: point the link at a real file, or delete it$`,
            ),
          ),
        })),
      )
    },
  )

  test.each(["bun", "node"])(
    "warns about a link in tools/ to a folder that holds it (loop -> .) as SYMLINK_LOOP (%s engine)",
    async (engine) => {
      const directory = fixture("hostile/symlink-loop-folder")
      const result = await runCli(["doctor", "--dir", directory, "--no-global", "--json", "--engine", engine])
      expect(result.exitCode).toBe(0)
      expect((JSON.parse(result.stdout) as { findings: Finding[] }).findings).toEqual([
        {
          code: "SYMLINK_LOOP",
          severity: "warning",
          file: `${directory}/.opencode/tools/loop`,
          message:
            "a symbolic link to a folder that holds it (loop -> .): opencode looks only at the files directly in tools/ and skips it, but anything that walks tools/ recursively follows it forever: delete the link",
        },
      ])
    },
  )

  test("reports a plugin that cannot be loaded as PLUGIN_LOAD_FAILED", async () => {
    const result = await runCli([
      "doctor",
      "--dir",
      fixture("cli-basic"),
      "--no-global",
      "--json",
      "--plugin",
      "./nowhere.ts",
    ])
    expect(result.exitCode).toBe(3)
    const findings = (JSON.parse(result.stdout) as { findings: Finding[] }).findings
    expect(findings).toMatchObject([
      { code: "PLUGIN_LOAD_FAILED", severity: "error", message: expect.stringContaining("nowhere.ts") },
    ])
  })
})
