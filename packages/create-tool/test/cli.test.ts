import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import {
  nextStepCommands,
  packageDirectory,
  printedToolIds,
  run,
  runCli,
  templatesDirectory,
  useTmpDir,
} from "./helpers.ts"

// Every flag and every error, run in-process with stdin not a terminal (so it never asks): the code
// the bin runs (test/helpers.ts runCli); test/bin.test.ts checks the built bin itself.

const files = (directory: string) =>
  existsSync(directory) ? readdirSync(directory, { recursive: true, encoding: "utf8" }).sort() : []
const read = (path: string) => readFileSync(path, "utf8")
/** A character a terminal would not show as itself (what create-tool escapes), but the plain space and newline. */
const hiddenCharacter = /(?![ \n])[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/u

describe("options", () => {
  test("--help shows the usage, every option and the templates", async () => {
    const { code, stdout } = await runCli(["--help"], { cwd: useTmpDir() })
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: create-tool \[NAME\]/)
    for (const option of ["--dir", "--global", "--plugin", "--tool-name", "--exports", "--template", "--js"]) {
      expect(stdout).toContain(option)
    }
    for (const option of ["--description", "--no-test", "--force", "--no-interactive", "--yes"]) {
      expect(stdout).toContain(option)
    }
    expect(stdout).toMatch(/^ {2}default +a tool with one text argument/m)
    expect(stdout).toMatch(/^ {2}python +/m)
    expect(stdout).toMatch(/^ {2}shell +/m)
    expect((await runCli(["-h"], { cwd: useTmpDir() })).stdout).toBe(stdout)
  })

  test("--version prints the package version", async () => {
    const { version } = JSON.parse(read(new URL("../package.json", import.meta.url).pathname))
    const { code, stdout } = await runCli(["--version"], { cwd: useTmpDir() })
    expect([code, stdout]).toEqual([0, `create-tool ${version}\n`])
    expect((await runCli(["-v"], { cwd: useTmpDir() })).stdout).toBe(stdout)
  })

  test("NAME alone writes .opencode/tools/NAME.ts in the working folder and prints what it did", async () => {
    const cwd = useTmpDir()
    const { code, stdout, stderr } = await runCli(["hello"], { cwd })
    expect([code, stderr]).toEqual([0, ""])
    expect(files(join(cwd, ".opencode"))).toEqual([
      ".gitignore",
      "package.json",
      "pnpm-workspace.yaml",
      "test",
      "test/hello.test.ts",
      "tools",
      "tools/hello.ts",
      "tsconfig.json",
      "vitest.config.js",
    ])
    expect(stdout).toContain("✔ Created tool hello (default template, TypeScript) in .opencode")
    expect(stdout).toContain("created     .opencode/tools/hello.ts")
    expect(printedToolIds(stdout)).toEqual(["hello"])
    expect(stdout).toContain(
      [
        "Next steps:",
        "  npm install --prefix .opencode",
        "  npm test --prefix .opencode",
        `  npx --no --prefix .opencode tool-tester run hello input=hello`,
      ].join("\n"),
    )
    expect(stdout).not.toContain(String.fromCharCode(27)) // no colour codes when not a terminal
  })

  test("--no-interactive and --yes behave the same", async () => {
    for (const flag of ["--no-interactive", "--yes", "-y"]) {
      const cwd = useTmpDir()
      expect((await runCli(["hello", flag], { cwd })).code).toBe(0)
      expect(existsSync(join(cwd, ".opencode/tools/hello.ts"))).toBe(true)
    }
  })

  test("--dir puts .opencode in that folder, creating it", async () => {
    const cwd = useTmpDir()
    const { code, stdout } = await runCli(["hello", "--dir", "apps/web"], { cwd })
    expect(code).toBe(0)
    expect(existsSync(join(cwd, "apps/web/.opencode/tools/hello.ts"))).toBe(true)
    expect(stdout).toContain("  cd apps/web\n  npm install --prefix .opencode\n")
  })

  test("run inside a project's .opencode folder, or a folder in it, the tool goes in the project's .opencode/tools, and it says so", async () => {
    const project = useTmpDir()
    const config = join(project, ".opencode")
    mkdirSync(join(config, "tools"), { recursive: true })
    const inside = await runCli(["hello"], { cwd: config })
    expect(inside.code).toBe(0)
    expect(existsSync(join(config, "tools/hello.ts"))).toBe(true)
    expect(existsSync(join(config, ".opencode"))).toBe(false)
    expect(inside.stdout).toContain(
      `! ${config} is in the .opencode folder of the project ${project}, so the tool went in ${join(config, "tools")}, where opencode reads it; pass --dir . to make ${config} the project instead.\n`,
    )
    expect(inside.stdout).toContain("  cd ..\n  npm install --prefix .opencode\n")
    expect(inside.stdout).toContain(`Start opencode in ${project}: it will offer hello.`)

    const deeper = await runCli(["bye"], { cwd: join(config, "tools") })
    expect(deeper.code).toBe(0)
    expect(existsSync(join(config, "tools/bye.ts"))).toBe(true)
    expect(existsSync(join(config, "tools/.opencode"))).toBe(false)
    expect(deeper.stdout).toContain(`Start opencode in ${project}: it will offer bye.`)

    // --dir . keeps the folder itself as the project, as asked (with the note that opencode reads it only from there).
    const asked = await runCli(["again", "--dir", "."], { cwd: config })
    expect(asked.code).toBe(0)
    expect(existsSync(join(config, ".opencode/tools/again.ts"))).toBe(true)
    expect(asked.stdout).toContain("is itself a .opencode folder")
  })

  test("--global writes to $XDG_CONFIG_HOME/opencode/tools", async () => {
    const cwd = useTmpDir()
    const config = join(cwd, "config")
    const { code, stdout } = await runCli(["hello", "--global"], { cwd, env: { XDG_CONFIG_HOME: config } })
    expect(code).toBe(0)
    expect(files(join(config, "opencode"))).toContain("tools/hello.ts")
    expect(files(join(cwd, ".opencode"))).toEqual([])
    expect(stdout).toContain("opencode will offer hello in every project.")
  })

  test("typed inside the global config folder, the tool goes in its tools/, as with --global, with a note", async () => {
    const cwd = useTmpDir()
    const global = join(cwd, "config", "opencode")
    mkdirSync(join(global, "tools"), { recursive: true })
    const { code, stdout } = await runCli(["hello", "--no-interactive"], {
      cwd: join(global, "tools"),
      env: { XDG_CONFIG_HOME: join(cwd, "config") },
    })
    expect(code).toBe(0)
    expect(files(global)).toContain("tools/hello.ts")
    expect(files(global).some((file) => file.startsWith("tools/.opencode"))).toBe(false)
    expect(stdout).toContain(
      `is in opencode's global config folder ${global}, so the tool went in ${join(global, "tools")}`,
    )
    expect(stdout).toContain("opencode will offer hello in every project.")
  })

  test("--global without XDG_CONFIG_HOME writes to ~/.config/opencode/tools", async () => {
    const home = useTmpDir()
    const { code } = await runCli(["hello", "--global"], { cwd: home, env: { HOME: home, XDG_CONFIG_HOME: "" } })
    expect(code).toBe(0)
    expect(existsSync(join(home, ".config/opencode/tools/hello.ts"))).toBe(true)
  })

  test("--global with a relative XDG_CONFIG_HOME: one line naming the variable, exit 1, nothing written", async () => {
    const cwd = useTmpDir()
    const { code, stdout, stderr } = await runCli(["hello", "--global"], { cwd, env: { XDG_CONFIG_HOME: "rel" } })
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toBe(
      '✖ XDG_CONFIG_HOME is "rel", a relative path, which names no one folder (each program would read it from where it runs). Set XDG_CONFIG_HOME to an absolute path, or unset it for ~/.config. [USAGE]\n',
    )
    expect(files(cwd)).toEqual([])
  })

  test("--plugin creates the package folder DIR/NAME", async () => {
    const cwd = useTmpDir()
    const { code, stdout } = await runCli(["opencode-weather", "--plugin", "--dir", "packages"], { cwd })
    expect(code).toBe(0)
    expect(files(join(cwd, "packages/opencode-weather"))).toContain("src/index.ts")
    expect(stdout).toContain("✔ Created plugin package opencode-weather (default template, TypeScript)")
    expect(printedToolIds(stdout)).toEqual(["weather"])
    expect(files(join(cwd, "packages/opencode-weather"))).toContain("src/weather.ts")
    expect(stdout).toContain('add "opencode-weather" to the "plugin" list of opencode.json')
  })

  test("--plugin names the tool after the package, without scope and opencode- prefix", async () => {
    const cwd = useTmpDir()
    const { code, stdout } = await runCli(["@me/opencode-weather", "--plugin"], { cwd })
    expect(code).toBe(0)
    expect(printedToolIds(stdout)).toEqual(["weather"])
    expect(files(join(cwd, "opencode-weather"))).toEqual(
      expect.arrayContaining(["src/weather.ts", "test/weather.test.ts"]),
    )
    expect(read(join(cwd, "opencode-weather/src/index.ts"))).toContain("weather: tools.default,")
    const readme = read(join(cwd, "opencode-weather/README.md"))
    expect(readme).toMatch(/^# @me\/opencode-weather\n/)
    expect(readme).toMatch(/^- `weather`$/m)
    // What is left must be a usable id that is not a built-in's: else the name stays as it is.
    expect(printedToolIds((await runCli(["opencode-read", "--plugin"], { cwd })).stdout)).toEqual(["opencode-read"])
    expect(printedToolIds((await runCli(["opencode-9x", "--plugin"], { cwd })).stdout)).toEqual(["opencode-9x"])
    expect(printedToolIds((await runCli(["forecast", "--plugin"], { cwd })).stdout)).toEqual(["forecast"])
  })

  test("--tool-name sets a plugin's tool id, named exports included", async () => {
    const cwd = useTmpDir()
    const args = ["opencode-weather", "--plugin", "--tool-name", "forecast", "--exports", "today,week"]
    const { code, stdout } = await runCli(args, { cwd })
    expect(code).toBe(0)
    expect(printedToolIds(stdout)).toEqual(["forecast_today", "forecast_week"])
    expect(stdout).toContain("✔ Created plugin package opencode-weather")
    expect(stdout).toContain("created     opencode-weather/src/forecast.ts")
    expect(read(join(cwd, "opencode-weather/src/index.ts"))).toContain("forecast_week: tools.week,")
  })

  test("--exports makes named exports, one tool id each", async () => {
    const cwd = useTmpDir()
    const { stdout } = await runCli(["math", "--exports", "add,multiply"], { cwd })
    expect(printedToolIds(stdout)).toEqual(["math_add", "math_multiply"])
    expect(read(join(cwd, ".opencode/tools/math.ts"))).toContain("export const multiply = tool({")
  })

  test("--template and -t choose the template", async () => {
    const cwd = useTmpDir()
    expect((await runCli(["count", "--template", "python"], { cwd })).code).toBe(0)
    expect(files(join(cwd, ".opencode/tools"))).toEqual(["count.py", "count.ts"])
    expect((await runCli(["run", "-t", "shell"], { cwd })).code).toBe(0)
    expect(read(join(cwd, ".opencode/tools/run.ts"))).toContain("context.ask(")
  })

  test("--js writes JavaScript", async () => {
    const cwd = useTmpDir()
    const { stdout } = await runCli(["hello", "--js"], { cwd })
    expect(files(join(cwd, ".opencode"))).toEqual([
      ".gitignore",
      "package.json",
      "pnpm-workspace.yaml",
      "test",
      "test/hello.test.js",
      "tools",
      "tools/hello.js",
      "vitest.config.js",
    ])
    expect(stdout).toContain("(default template, JavaScript)")
  })

  test("--description sets what the model reads", async () => {
    const cwd = useTmpDir()
    await runCli(["hello", "--description", 'Say "hi" to $USER'], { cwd })
    expect(read(join(cwd, ".opencode/tools/hello.ts"))).toContain('description: "Say \\"hi\\" to $USER",')
  })

  test("--no-test writes no test and no test dependencies", async () => {
    const cwd = useTmpDir()
    const { stdout } = await runCli(["hello", "--no-test"], { cwd })
    expect(files(join(cwd, ".opencode"))).not.toContain("test/hello.test.ts")
    expect(read(join(cwd, ".opencode/package.json"))).not.toContain("vitest")
    expect(stdout).toContain("npx @opencode-ai/tool-tester run hello")
  })

  test("--force overwrites existing files and allows replacing a built-in tool", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
    writeFileSync(join(cwd, ".opencode/tools/bash.ts"), "mine")
    const { code, stdout } = await runCli(["bash", "--force"], { cwd })
    expect(code).toBe(0)
    expect(read(join(cwd, ".opencode/tools/bash.ts"))).toContain("tool({")
    expect(stdout).toContain("overwritten .opencode/tools/bash.ts")
    expect(stdout).toContain("! bash replaces opencode's built-in tool of that name")
  })

  test("a --dir with characters that do not show is printed escaped, and the cd command still runs", async () => {
    const cwd = useTmpDir()
    const { code, stdout, stderr } = await runCli(["hello", "--dir", "app\u202E'x"], { cwd })
    expect([code, stderr]).toEqual([0, ""])
    expect(existsSync(join(cwd, "app\u202E'x/.opencode/tools/hello.ts"))).toBe(true)
    expect(stdout).toContain("in app\\u{202E}'x/.opencode\n")
    expect(stdout).toContain("created     app\\u{202E}'x/.opencode/tools/hello.ts\n")
    expect(stdout).toContain(`Start opencode in ${cwd}/app\\u{202E}'x: it will offer hello.`)
    expect(stdout).not.toMatch(hiddenCharacter)
    const cdLine = stdout.split("\n").find((line) => line.startsWith("  cd "))!
    expect(cdLine).toBe("  cd $'app\\u202e\\'x'")
    const bash = await run("bash", ["-c", `${cdLine.trim()} && pwd`], { cwd })
    expect(bash.stdout).toBe(`${join(cwd, "app\u202E'x")}\n`)
  })

  test("merging into a package.json that is a symlink writes its target and keeps the link", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    mkdirSync(join(cwd, "shared"))
    writeFileSync(join(cwd, "shared/package.json"), '{ "name": "shared" }\n', { mode: 0o640 })
    chmodSync(join(cwd, "shared/package.json"), 0o640)
    symlinkSync("../shared/package.json", join(cwd, ".opencode/package.json"))
    const { code, stdout, stderr } = await runCli(["hello"], { cwd })
    expect([code, stderr]).toEqual([0, ""])
    expect(stdout).toContain("updated     .opencode/package.json")
    expect(lstatSync(join(cwd, ".opencode/package.json")).isSymbolicLink()).toBe(true)
    expect(readlinkSync(join(cwd, ".opencode/package.json"))).toBe("../shared/package.json")
    expect(JSON.parse(read(join(cwd, "shared/package.json")))).toMatchObject({ name: "shared", type: "module" })
    expect(statSync(join(cwd, "shared/package.json")).mode & 0o7777).toBe(0o640)
    expect(files(join(cwd, "shared"))).toEqual(["package.json"]) // no temporary or backup left
  })

  test("a package.json linked to a file outside the project is left as it is, and the note says what to add", async () => {
    const outside = useTmpDir()
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    writeFileSync(join(outside, "package.json"), '{ "name": "shared" }\n')
    symlinkSync(join(outside, "package.json"), join(cwd, ".opencode/package.json"))
    const { code, stdout, stderr } = await runCli(["hello"], { cwd })
    expect(code).toBe(0)
    expect(stdout).toContain("kept        .opencode/package.json")
    expect(stderr + stdout).toMatch(/is a link to .*package\.json, outside .*: left as it is; add .*devDependencies/)
    expect(read(join(outside, "package.json"))).toBe('{ "name": "shared" }\n')
  })

  test.each([[], ["--force"]])("a dangling link at the tool's path is named as such, %s", async (...flags) => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
    symlinkSync(join(cwd, "missing.ts"), join(cwd, ".opencode/tools/hello.ts"))
    const run = await runCli(["hello", ...flags], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^✖ .*hello\.ts is a link to .*missing\.ts, which does not exist: delete the link .* \[FILE_EXISTS\]\n$/,
    )
    expect(files(join(cwd, ".opencode"))).toEqual(["tools", "tools/hello.ts"])
  })

  // mkdir fails on such a link (EEXIST), which read as "a file is in the way ... fix its permissions".
  test.each([
    [".opencode", [], ".opencode"],
    [".opencode/tools", [], ".opencode/tools"],
    ["weather", ["--plugin"], "weather"],
    ["weather/src", ["--plugin", "--force"], "weather/src"],
  ])("a dangling link where the folder %s goes is named as such, %j", async (link, flags, shown) => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, link, ".."), { recursive: true })
    symlinkSync(join(cwd, "gone"), join(cwd, link))
    const run = await runCli(["weather", ...flags], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      `✖ ${join(cwd, shown)} is a link to ${join(cwd, "gone")}, which does not exist, where a folder must go: delete the link or create its target folder, and run again. [FILE_EXISTS]\n`,
    )
    expect(lstatSync(join(cwd, link)).isSymbolicLink()).toBe(true)
    // Nothing written: the link, and the folder above it.
    expect(files(cwd)).toEqual(link.includes("/") ? [link.split("/")[0], link] : [link])
  })

  test.each([[], ["--force"]])(
    "a tool file that links outside the project is never written through, %s",
    async (...flags) => {
      const cwd = useTmpDir()
      const outside = useTmpDir()
      writeFileSync(join(outside, "shared.ts"), "// shared\n")
      mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
      symlinkSync(join(outside, "shared.ts"), join(cwd, ".opencode/tools/hello.ts"))
      const run = await runCli(["hello", ...flags], { cwd })
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(
        /^✖ .*hello\.ts is a link to .*shared\.ts, outside .*: choose another name, or remove the link, and run again \(--force does not write outside the folder\)\. \[FILE_EXISTS\]\n$/,
      )
      expect(readFileSync(join(outside, "shared.ts"), "utf8")).toBe("// shared\n")
      expect(files(join(cwd, ".opencode"))).toEqual(["tools", "tools/hello.ts"])
    },
  )

  test("a kept dependency whose range allows no version the generated files need is named, with the fix", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    writeFileSync(
      join(cwd, ".opencode/package.json"),
      '{ "devDependencies": { "vitest": "^1.6.0", "typescript": "^5.4.0", "@types/node": "latest" } }\n',
    )
    const { code, stdout } = await runCli(["hello", "--no-interactive"], { cwd })
    expect(code).toBe(0)
    const template = JSON.parse(read(join(templatesDirectory, "_project/package.json"))) as {
      devDependencies: Record<string, string>
    }
    expect(stdout).toContain(
      `! ${join(cwd, ".opencode/package.json")}: kept your "devDependencies.vitest" "^1.6.0", which allows no version the generated files need ("${template.devDependencies.vitest}"): the install will fail or the test not run; change it to "${template.devDependencies.vitest}".`,
    )
    // A range that meets the template's, and a tag, are the user's choice: no note.
    expect(stdout).not.toContain("devDependencies.typescript")
    expect(stdout).not.toContain("devDependencies.@types/node")
    expect(JSON.parse(read(join(cwd, ".opencode/package.json"))).devDependencies.vitest).toBe("^1.6.0")
  })

  test("merging into a package.json with CRLF line ends, a 4-space indent and a byte order mark keeps them", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    const existing =
      '\uFEFF{\r\n    "name": "mine",\r\n    "scripts": {\r\n        "lint": "eslint ."\r\n    }\r\n}\r\n'
    writeFileSync(join(cwd, ".opencode/package.json"), existing)
    const { code } = await runCli(["hello", "--no-interactive"], { cwd })
    expect(code).toBe(0)
    const written = read(join(cwd, ".opencode/package.json"))
    expect(
      written.startsWith('\uFEFF{\r\n    "name": "mine",\r\n    "scripts": {\r\n        "lint": "eslint .",\r\n'),
    ).toBe(true)
    expect(written.replaceAll("\r\n", "")).not.toContain("\n")
    expect(JSON.parse(written.slice(1)).scripts).toMatchObject({ lint: "eslint .", test: expect.any(String) })
  })

  test("a vitest.config.ts of the user's is kept, with no second config beside it, and a note when it lacks the watch plugin", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    writeFileSync(join(cwd, ".opencode/vitest.config.ts"), "export default {}\n")
    const { code, stdout } = await runCli(["hello", "--no-interactive"], { cwd })
    expect(code).toBe(0)
    expect(files(join(cwd, ".opencode")).filter((file) => file.startsWith("vitest.config"))).toEqual([
      "vitest.config.ts",
    ])
    expect(read(join(cwd, ".opencode/vitest.config.ts"))).toBe("export default {}\n")
    expect(stdout).toContain(
      `! ${join(cwd, ".opencode/vitest.config.ts")}: kept as it is; add toolTester() from "@opencode-ai/tool-tester/vitest" to its plugins`,
    )
  })

  test("merging into a package.json keeps its mode", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    const packageJson = join(cwd, ".opencode/package.json")
    writeFileSync(packageJson, "{}\n")
    chmodSync(packageJson, 0o600)
    expect((await runCli(["hello"], { cwd })).code).toBe(0)
    expect(JSON.parse(read(packageJson)).type).toBe("module")
    expect(statSync(packageJson).mode & 0o7777).toBe(0o600)
    chmodSync(packageJson, 0o664)
    expect((await runCli(["other", "--exports", "x"], { cwd })).code).toBe(0)
    expect(statSync(packageJson).mode & 0o7777).toBe(0o664)
  })

  test("the next commands follow the package manager that ran create-tool", async () => {
    const cwd = useTmpDir()
    const env = { npm_config_user_agent: "yarn/1.22.22 npm/? node/v20.19.0 linux x64" }
    const { stdout } = await runCli(["hello"], { cwd, env })
    expect(stdout).toContain(
      "  yarn --cwd .opencode install\n  yarn --cwd .opencode test\n  yarn --cwd .opencode tool-tester run hello input=hello",
    )
  })

  test("under pnpm, .opencode and the global folder get npm's commands, with the reason; a plugin package pnpm's", async () => {
    // opencode's own npm install in a config folder that pnpm installed fails slowly: doctor's PNPM_INSTALL.
    const cwd = useTmpDir()
    const env = {
      npm_config_user_agent: "pnpm/10.34.9 npm/? node/v20.19.0 linux x64",
      XDG_CONFIG_HOME: join(cwd, "config"),
    }
    const reason = (folder: string) =>
      `! The next steps install ${folder} with npm, not pnpm: opencode runs its own npm install in every config folder when it starts, which fails on pnpm's layout after a long wait, so opencode starts about 100 s later (docs/scaffolding.md#run-it).`
    const project = await runCli(["hello"], { cwd, env })
    expect(nextStepCommands(project.stdout)).toEqual([
      "npm install --prefix .opencode",
      "npm test --prefix .opencode",
      "npx --no --prefix .opencode tool-tester run hello input=hello",
    ])
    expect(project.stdout).toContain(reason(join(cwd, ".opencode")))
    const global = await runCli(["hello", "--global"], { cwd, env })
    expect(nextStepCommands(global.stdout).slice(1, 3)).toEqual(["npm install", "npm test"])
    expect(global.stdout).toContain(reason(join(cwd, "config/opencode")))
    const plugin = await runCli(["opencode-weather", "--plugin"], { cwd, env })
    expect(nextStepCommands(plugin.stdout).slice(1, 3)).toEqual(["pnpm install", "pnpm test"])
    expect(plugin.stdout).not.toContain("with npm, not pnpm")
    expect(read(join(cwd, "opencode-weather/README.md"))).toContain("pnpm install")
  })

  test.each([
    [
      "npm/11.6.2 node/v20.20.0 linux x64",
      "npm test --prefix .opencode -- -u",
      "npm test -- -u",
      "npm test --prefix .opencode -- --watch",
    ],
    [
      // A config folder's commands are npm's under pnpm, a plugin package's pnpm's.
      "pnpm/10.34.9 npm/? node/v20.19.0 linux x64",
      "npm test --prefix .opencode -- -u",
      "pnpm test -u",
      "npm test --prefix .opencode -- --watch",
    ],
    [
      "yarn/1.22.22 npm/? node/v20.20.0 linux x64",
      "yarn --cwd .opencode test -u",
      "yarn test -u",
      "yarn --cwd .opencode test --watch",
    ],
    [
      "bun/1.3.14 npm/? node/v24.3.0 linux x64",
      "bun run --cwd .opencode test -u",
      "bun run test -u",
      "bun run --cwd .opencode test --watch",
    ],
  ])(
    "the commands the generated files name follow the package manager that ran create-tool (%s)",
    async (userAgent, project, plugin, watch) => {
      const cwd = useTmpDir()
      const env = { npm_config_user_agent: userAgent }
      expect((await runCli(["hello", "--no-interactive"], { cwd, env })).code).toBe(0)
      expect((await runCli(["opencode-weather", "--plugin", "--no-interactive"], { cwd, env })).code).toBe(0)
      expect(read(join(cwd, ".opencode/test/hello.test.ts"))).toContain(
        `// \`${project}\`, run from the project folder, rewrites it.`,
      )
      expect(read(join(cwd, ".opencode/vitest.config.js"))).toContain(
        `// \`${watch}\`, run from the project folder, watches`,
      )
      expect(read(join(cwd, "opencode-weather/test/weather.test.ts"))).toContain(
        `// \`${plugin}\`, run in the folder of package.json, rewrites it.`,
      )
    },
  )
  test.each([
    ["npm/11.6.2 node/v20.20.0 linux x64", "npm run test:tools --prefix .opencode", "-- -u"],
    ["pnpm/10.34.9 npm/? node/v20.19.0 linux x64", "npm run test:tools --prefix .opencode", "-- -u"],
    ["yarn/1.22.22 npm/? node/v20.20.0 linux x64", "yarn --cwd .opencode run test:tools", "-u"],
    ["yarn/4.9.2 npm/? node/v20.20.0 linux x64", "yarn --cwd .opencode run test:tools", "-u"],
    ["bun/1.3.14 npm/? node/v24.3.0 linux x64", "bun run --cwd .opencode test:tools", "-u"],
  ])(
    "beside a test script of the user's, the next steps, the note and the comments name test:tools (%s)",
    async (userAgent, test, update) => {
      const cwd = useTmpDir()
      mkdirSync(join(cwd, ".opencode"))
      writeFileSync(join(cwd, ".opencode/package.json"), '{ "scripts": { "test": "node --test" } }\n')
      const { code, stdout } = await runCli(["hello", "--no-interactive"], {
        cwd,
        env: { npm_config_user_agent: userAgent },
      })
      expect(code).toBe(0)
      const steps = stdout.split("Next steps:\n")[1]?.split("\n\n")[0]?.split("\n")
      // Right after the install (yarn 2 and later set their linker first).
      expect(steps?.[steps.findIndex((step) => step.includes(" install")) + 1]).toBe(`  ${test}`)
      expect(stdout).toContain(
        `! ${join(cwd, ".opencode/package.json")}: kept your script "test" (node --test) as it is, and added the tool's test as the "test:tools" script, which the next steps run.`,
      )
      expect(read(join(cwd, ".opencode/test/hello.test.ts"))).toContain(
        `// \`${test} ${update}\`, run from the project folder, rewrites it.`,
      )
    },
  )
})

// Started by a package manager there is no create-tool command on PATH: the commands its errors
// name are the ones the user typed (before, "see create-tool --help" pasted: command not found).
test.each([
  ["npm/11.19.1 node/v20.20.2 linux x64 workspaces/false", "npm create tool"],
  ["pnpm/10.34.9 npm/? node/v20.19.0 linux x64", "pnpm create tool"],
  [undefined, undefined],
])("errors name the command as typed under %s", async (userAgent, typed) => {
  const cwd = useTmpDir()
  const env = userAgent === undefined ? {} : { npm_config_user_agent: userAgent }
  const missing = await runCli([], { cwd, env })
  const plugin = await runCli(["--plugin"], { cwd, env })
  const unknown = await runCli(["hello", "--plugn"], { cwd, env })
  if (typed === undefined) {
    expect(missing.stderr).toContain("pass it first, as in create-tool my-tool.")
    expect(plugin.stderr).toContain("pass it first, as in create-tool opencode-my-tool --plugin.")
    expect(unknown.stderr).toContain("did you mean --plugin? See create-tool --help.")
  } else {
    expect(missing.stderr).toContain(`pass it first, as in ${typed} my-tool.`)
    expect(plugin.stderr).toContain(`pass it first, as in ${typed} opencode-my-tool -- --plugin.`)
    expect(unknown.stderr).toContain(`did you mean --plugin? See ${typed} -- --help.`)
  }
})

describe("bad input: one line on stderr, exit code 1, nothing written", () => {
  test.each([
    [[], "MISSING_NAME", "Missing the tool name"],
    [["--plugin", "--tool-name", "x"], "MISSING_NAME", "Missing the package name: pass it first"],
    [[""], "INVALID_NAME", "The tool name is empty"],
    [["../x"], "INVALID_NAME", "is a path"],
    [["/etc/passwd"], "INVALID_NAME", "is a path"],
    [["my.tool"], "INVALID_NAME", 'contains "."'],
    [["my tool"], "INVALID_NAME", 'contains " "'],
    [["9lives"], "INVALID_NAME", "must start with a letter"],
    [["x".repeat(65)], "INVALID_NAME", "at most 64"],
    [["nul"], "INVALID_NAME", "reserved file name on Windows"],
    [["Weather", "--plugin"], "INVALID_PACKAGE_NAME", "capital letters"],
    [["node_modules", "--plugin"], "INVALID_PACKAGE_NAME", '"node_modules" is a name npm reserves'],
    [["@me/node_modules", "--plugin"], "INVALID_PACKAGE_NAME", "node_modules folder"],
    [[".hidden", "--plugin"], "INVALID_PACKAGE_NAME", '".hidden" starts with ".": npm package names cannot'],
    [["_private", "--plugin"], "INVALID_PACKAGE_NAME", '"_private" starts with "_": npm package names cannot'],
    [["favicon.ico", "--plugin"], "INVALID_PACKAGE_NAME", "is a name npm reserves"],
    [["http", "--plugin"], "INVALID_PACKAGE_NAME", "Node.js core module"],
    [["@me/wea(ther", "--plugin"], "INVALID_PACKAGE_NAME", 'contains "("'],
    [["@me", "--plugin"], "INVALID_PACKAGE_NAME", "@me/NAME"],
    [[`@${"a".repeat(210)}/weather`, "--plugin"], "INVALID_PACKAGE_NAME", "npm accepts at most 214"],
    [
      ["hello", "--template", "rust"],
      "UNKNOWN_TEMPLATE",
      'Unknown template "rust": choose one of default, python, shell',
    ],
    [["hello", "--tool-name", "hi"], "CONFLICTING_OPTIONS", "--tool-name goes with --plugin only"],
    [["opencode-weather", "--plugin", "--tool-name", "my.tool"], "INVALID_NAME", '--tool-name: "my.tool" contains "."'],
    [["opencode-weather", "--plugin", "--tool-name", "9x"], "INVALID_NAME", "must start with a letter"],
    [["opencode-weather", "--plugin", "--tool-name", "bash"], "BUILTIN_OVERRIDE", "Tool id bash would replace"],
    [["index", "--plugin"], "INVALID_NAME", '✖ Tool id "index" would name the tools\' module src/index.ts'],
    [["x", "--plugin", "--tool-name", "index", "--js"], "INVALID_NAME", '--tool-name: Tool id "index"'],
    [["opencode-weather", "--plugin", "--tool-nam", "w"], "USAGE", "did you mean --tool-name?"],
    [["hello", "--exports", "add,add"], "INVALID_EXPORT_NAME", "given twice"],
    [["hello", "--exports", "default"], "INVALID_EXPORT_NAME", "default export"],
    [["hello", "--exports", ""], "INVALID_EXPORT_NAME", "empty name"],
    [["hello", "--description", " "], "INVALID_DESCRIPTION", "--description is empty"],
    [["bash"], "BUILTIN_OVERRIDE", "would replace opencode's built-in tool"],
    [["read", "--plugin"], "BUILTIN_OVERRIDE", "pass --force"],
    [["hello", "--bogus"], "USAGE", 'Unknown option "--bogus": see create-tool --help'],
    [["hello", "-rf"], "USAGE", 'Unknown option "-rf": see create-tool --help'],
    [["hello", "-yx"], "USAGE", 'Unknown option "-yx"'],
    [["hello", "--forse"], "USAGE", 'Unknown option "--forse": did you mean --force? See create-tool --help'],
    [["hello", "-plugin"], "USAGE", 'Unknown option "-plugin": did you mean --plugin?'],
    [["hello", "--dir"], "USAGE", "Option --dir needs a value"],
    [["hello", "-t"], "USAGE", "Option -t needs a value: see create-tool --help"],
    [["hello", "extra"], "USAGE", 'Unexpected argument "extra"'],
    [["hello", "--global", "--plugin"], "CONFLICTING_OPTIONS", "--global and --plugin cannot go together"],
    [["hello", "--global", "--dir", "x"], "CONFLICTING_OPTIONS", "--global and --dir cannot go together"],
    // Characters that do not show are refused in names, and shown escaped wherever input is echoed.
    [["a\u202Eb"], "INVALID_NAME", '"a\\u{202E}b" contains \\u{202E}, a character that does not show'],
    [["a\u200Bb", "--plugin"], "INVALID_PACKAGE_NAME", '"a\\u{200B}b" contains \\u{200B}'],
    [["@me/a\u2067b", "--plugin"], "INVALID_PACKAGE_NAME", '"@me/a\\u{2067}b" contains \\u{2067}'],
    [["red\u001b[31m"], "INVALID_NAME", '"red\\u{1B}[31m" contains \\u{1B}'],
    [["\uFEFFhello"], "INVALID_NAME", '"\\u{FEFF}hello" contains \\u{FEFF}'],
    [["no\u00A0break"], "INVALID_NAME", '"no\\u{A0}break" contains \\u{A0}'],
    [["two\nlines"], "INVALID_NAME", '"two\\nlines" contains \\n'],
    [["hello", "--exports", "add\u2066"], "INVALID_EXPORT_NAME", 'Export name "add\\u{2066}" contains \\u{2066}'],
    [["hello", "--template", "r\u202Eust"], "UNKNOWN_TEMPLATE", 'Unknown template "r\\u{202E}ust"'],
    [["hello", "-\u202Erf"], "USAGE", 'Unknown option "-\\u{202E}rf"'],
    [["hello", "x\u200B"], "USAGE", 'Unexpected argument "x\\u{200B}"'],
  ])("%j: %s", async (args, code, message) => {
    const cwd = useTmpDir()
    const run = await runCli(args, { cwd, env: { XDG_CONFIG_HOME: join(cwd, "config") } })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).toContain(message)
    expect(run.stderr).toMatch(new RegExp(`^✖ [^\\n]+ \\[${code}\\]\\n$`))
    expect(run.stderr).not.toMatch(hiddenCharacter)
    expect(files(cwd)).toEqual([])
  })

  test("a path with a character that does not show is echoed escaped", async () => {
    const cwd = useTmpDir()
    writeFileSync(join(cwd, "file\u202E"), "")
    const run = await runCli(["hello", "--dir", "file\u202E/app"], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^✖ Cannot write .*\/file\\u\{202E\}\/app\/\.opencode\/tools: part of that path is a file.* \[UNWRITABLE\]\n$/,
    )
    expect(run.stderr).not.toMatch(hiddenCharacter)
    expect(files(cwd)).toEqual(["file\u202E"])
  })

  test("an existing file is never overwritten without --force", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
    writeFileSync(join(cwd, ".opencode/tools/hello.ts"), "mine")
    const run = await runCli(["hello"], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^✖ .*\.opencode\/tools\/hello\.ts exists already: .*--force.* \[FILE_EXISTS\]\n$/)
    expect(read(join(cwd, ".opencode/tools/hello.ts"))).toBe("mine")
    expect(files(join(cwd, ".opencode"))).toEqual(["tools", "tools/hello.ts"])
  })

  describe("a tool file that already gives the new id: refused, even with --force", () => {
    const tools = (cwd: string) => join(cwd, ".opencode/tools")
    test.each([
      ["weather.ts", "export default {}", ["weather", "--js"], "weather.ts already gives tool id weather"],
      [
        "weather.js",
        "export default {}",
        ["weather", "--template", "python"],
        "weather.js already gives tool id weather",
      ],
      [
        "weather.ts",
        "export const a = {}",
        ["weather", "--js", "--exports", "b"],
        "weather.ts already gives tool id weather",
      ],
      [
        "weather_a.ts",
        "export default {}",
        ["weather", "--exports", "a,b"],
        "weather_a.ts already gives tool id weather_a",
      ],
      [
        "weather_a.js",
        "export { x as default }",
        ["weather", "--exports", "a"],
        "weather_a.js already gives tool id weather_a",
      ],
      ["math.ts", "export const add = {}", ["math_add"], "math.ts already gives tool id math_add"],
      ["math.js", "const add = {}\nexport { add }", ["math_add", "--js"], "math.js already gives tool id math_add"],
      ["math.ts", "export async function add() {}", ["math_add"], "math.ts already gives tool id math_add"],
    ])("%s (%s), then %j", async (file, source, args, message) => {
      for (const force of [[], ["--force"]]) {
        const cwd = useTmpDir()
        mkdirSync(tools(cwd), { recursive: true })
        writeFileSync(join(tools(cwd), file), source)
        const run = await runCli([...args, ...force], { cwd })
        expect(run.code).toBe(1)
        expect(run.stdout).toBe("")
        expect(run.stderr).toContain(message)
        expect(run.stderr).toMatch(
          /^✖ [^\n]+: choose another name, or delete or rename that file first \(--force does not\)\. \[DUPLICATE_TOOL_ID\]\n$/,
        )
        expect(files(join(cwd, ".opencode"))).toEqual(["tools", `tools/${file}`])
      }
    })

    test("opencode's tool/ folder counts too", async () => {
      const cwd = useTmpDir()
      mkdirSync(join(cwd, ".opencode/tool"), { recursive: true })
      writeFileSync(join(cwd, ".opencode/tool/weather.js"), "export default {}")
      const run = await runCli(["weather"], { cwd })
      expect(run.stderr).toMatch(/\.opencode\/tool\/weather\.js already gives tool id weather.*\[DUPLICATE_TOOL_ID\]/)
    })

    test("the global folder is checked the same way", async () => {
      const cwd = useTmpDir()
      const config = join(cwd, "config")
      mkdirSync(join(config, "opencode/tools"), { recursive: true })
      writeFileSync(join(config, "opencode/tools/weather.js"), "export default {}")
      const run = await runCli(["weather", "--global"], { cwd, env: { XDG_CONFIG_HOME: config } })
      expect(run.stderr).toMatch(/weather\.js already gives tool id weather.*\[DUPLICATE_TOOL_ID\]/)
    })

    test("files whose exports give other ids are no collision", async () => {
      const cwd = useTmpDir()
      mkdirSync(tools(cwd), { recursive: true })
      writeFileSync(join(tools(cwd), "weather_a.ts"), "export const today = {}") // weather_a_today
      writeFileSync(join(tools(cwd), "math.ts"), "export const addition = {}\nexport default {}") // math_addition, math
      writeFileSync(join(tools(cwd), "weather.py"), "") // not a tool file
      expect((await runCli(["weather", "--exports", "a,b"], { cwd })).code).toBe(0)
      expect((await runCli(["math_add"], { cwd })).code).toBe(0)
    })
  })

  test("a tool file whose name differs only in case: refused, even with --force, naming the file there", async () => {
    for (const force of [[], ["--force"]]) {
      const cwd = useTmpDir()
      mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
      writeFileSync(join(cwd, ".opencode/tools/Hello.ts"), "export default {}")
      const run = await runCli(["hello", ...force], { cwd })
      expect(run.code).toBe(1)
      expect(run.stdout).toBe("")
      expect(run.stderr).toMatch(
        /^✖ [^\n]*\.opencode\/tools\/Hello\.ts differs from hello\.ts only in case, which macOS and Windows take for one name: choose another name, or rename that one first \(--force does not\)\. \[CASE_COLLISION\]\n$/,
      )
      expect(files(join(cwd, ".opencode"))).toEqual(["tools", "tools/Hello.ts"])
    }
    // Both there already (as Linux allows): --force overwrites the file of the exact name, as any other.
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
    writeFileSync(join(cwd, ".opencode/tools/Hello.ts"), "export default {}")
    writeFileSync(join(cwd, ".opencode/tools/hello.ts"), "export default {}")
    expect((await runCli(["hello", "--force"], { cwd })).code).toBe(0)
    expect(readFileSync(join(cwd, ".opencode/tools/Hello.ts"), "utf8")).toBe("export default {}")
  })

  test("a plugin's package folder that differs only in case from a folder there is refused, nothing written", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, "Weather"))
    const run = await runCli(["weather", "--plugin", "--no-interactive"], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/Weather differs from weather only in case[^\n]*\[CASE_COLLISION\]\n$/)
    expect(files(cwd)).toEqual(["Weather"])
  })

  test("an existing plugin folder is never overwritten without --force", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, "weather"))
    writeFileSync(join(cwd, "weather/package.json"), "{}")
    const run = await runCli(["weather", "--plugin"], { cwd })
    expect(run.stderr).toMatch(/weather\/package\.json exists already/)
    expect(files(join(cwd, "weather"))).toEqual(["package.json"])
  })

  test("a folder that cannot be written: a file in the way", async () => {
    const cwd = useTmpDir()
    writeFileSync(join(cwd, "not-a-folder"), "")
    const run = await runCli(["hello", "--dir", "not-a-folder/app"], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^✖ Cannot write .*not-a-folder\/app\/\.opencode\/tools: part of that path is a file.* \[UNWRITABLE\]\n$/,
    )
    expect(files(cwd)).toEqual(["not-a-folder"])
  })

  test("a folder that cannot be written: no permission", async () => {
    const cwd = useTmpDir()
    // Root ignores file modes, so as root use a folder the kernel refuses to anyone: /sys.
    const isRoot = process.getuid?.() === 0
    const directory = isRoot ? "/sys/create-tool-test" : join(cwd, "read-only")
    if (!isRoot) mkdirSync(directory, { mode: 0o555 })
    const run = await runCli(["hello", "--dir", directory], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^✖ Cannot write .*: (permission denied|operation not permitted|the file system is read-only)\. Nothing was written.* \[UNWRITABLE\]\n$/,
    )
    expect(existsSync(join(directory, ".opencode"))).toBe(false)
  })

  test("a read-only package.json is not rewritten: refused, nothing written", async () => {
    // Root may write any file, so a package.json without a write bit counts as read-only for it too.
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    const packageJson = join(cwd, ".opencode/package.json")
    writeFileSync(packageJson, '{ "name": "mine" }\n')
    chmodSync(packageJson, 0o444)
    const run = await runCli(["hello"], { cwd })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).toMatch(
      /^✖ Cannot write .*\.opencode\/package\.json: the file is read-only\. Nothing was written: make it writable \(chmod u\+w\) or move it away, and run again\. \[UNWRITABLE\]\n$/,
    )
    expect(read(packageJson)).toBe('{ "name": "mine" }\n')
    expect(statSync(packageJson).mode & 0o777).toBe(0o444)
    expect(files(join(cwd, ".opencode"))).toEqual(["package.json"])
  })

  test("a read-only file is not overwritten even with --force", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode/tools"), { recursive: true })
    writeFileSync(join(cwd, ".opencode/tools/hello.ts"), "mine")
    chmodSync(join(cwd, ".opencode/tools/hello.ts"), 0o444)
    const run = await runCli(["hello", "--force"], { cwd })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^✖ Cannot write .*\/tools\/hello\.ts: the file is read-only\. .* \[UNWRITABLE\]\n$/)
    expect(read(join(cwd, ".opencode/tools/hello.ts"))).toBe("mine")
    expect(files(join(cwd, ".opencode"))).toEqual(["tools", "tools/hello.ts"])
  })

  test("a package.json linked to a read-only file is refused, naming the link's target", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    writeFileSync(join(cwd, "shared.json"), "{}\n", { mode: 0o444 })
    symlinkSync("../shared.json", join(cwd, ".opencode/package.json"))
    const run = await runCli(["hello"], { cwd })
    expect(run.stderr).toMatch(
      /^✖ Cannot write .*\.opencode\/package\.json \(a link to .*\/shared\.json\): the file is read-only\. .* \[UNWRITABLE\]\n$/,
    )
    expect(read(join(cwd, "shared.json"))).toBe("{}\n")
    expect(files(cwd)).toEqual([".opencode", ".opencode/package.json", "shared.json"])
  })

  test("a package.json whose scripts are not an object, when the test's script is to be added", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    writeFileSync(join(cwd, ".opencode/package.json"), '{ "scripts": "node --test" }\n')
    const run = await runCli(["hello"], { cwd })
    expect(run.stderr).toMatch(
      /^✖ .*package\.json has a "scripts" field that is not an object, .* \[INVALID_PACKAGE_JSON\]\n$/,
    )
    expect(files(join(cwd, ".opencode"))).toEqual(["package.json"])
  })

  test("a package.json that is not JSON", async () => {
    const cwd = useTmpDir()
    mkdirSync(join(cwd, ".opencode"))
    writeFileSync(join(cwd, ".opencode/package.json"), "{ oops")
    const run = await runCli(["hello"], { cwd })
    expect(run.stderr).toMatch(/^✖ .*package\.json is not valid JSON .* \[INVALID_PACKAGE_JSON\]\n$/)
    expect(files(join(cwd, ".opencode"))).toEqual(["package.json"])
  })

  test("an installation without its templates", async () => {
    const installation = useTmpDir()
    for (const entry of ["package.json", "bin.js", "dist"]) {
      cpSync(join(packageDirectory, entry), join(installation, entry), { recursive: true })
    }
    const cwd = useTmpDir()
    const ran = await run(process.execPath, [join(installation, "bin.js"), "hello"], { cwd })
    expect(ran.code).toBe(1)
    expect(ran.stderr).toMatch(
      /^✖ The templates folder is missing next to .*: reinstall create-tool\. \[TEMPLATES_NOT_FOUND\]\n$/,
    )
    expect(files(cwd)).toEqual([])
  })
})
