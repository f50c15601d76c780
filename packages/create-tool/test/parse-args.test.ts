import { expect, test } from "vitest"
import { parseArguments } from "../src/parse-args.ts"

test("reads every option", () => {
  expect(
    parseArguments([
      "math",
      "--dir",
      "app",
      "--plugin",
      "--exports",
      "add, multiply",
      "--template",
      "python",
      "--js",
      "--description",
      "Does math",
      "--no-test",
      "--force",
      "--no-interactive",
    ]),
  ).toEqual({
    name: "math",
    dir: "app",
    global: false,
    plugin: true,
    exports: ["add", "multiply"],
    template: "python",
    js: true,
    description: "Does math",
    test: false,
    force: true,
    interactive: false,
    help: false,
    version: false,
    npmConfigNotes: [],
  })
})

test("leaves what is not given undefined, so a terminal can ask for it", () => {
  expect(parseArguments([])).toMatchObject({
    name: undefined,
    dir: undefined,
    exports: undefined,
    template: undefined,
    description: undefined,
    test: true,
    interactive: undefined,
  })
})

test("--yes and -y mean --no-interactive; -t, -h and -v are short forms", () => {
  expect(parseArguments(["--yes"]).interactive).toBe(false)
  expect(parseArguments(["-y"]).interactive).toBe(false)
  expect(parseArguments(["-t", "shell"]).template).toBe("shell")
  // As npm reads it without --: after -- (and under pnpm, yarn, bun) node:util would take "=shell".
  expect(parseArguments(["hello", "--", "-t=shell"]).template).toBe("shell")
  expect(parseArguments(["-t=python"]).template).toBe("python")
  expect(parseArguments(["-h"]).help).toBe(true)
  expect(parseArguments(["-v"]).version).toBe(true)
})

test("a -- that pnpm, yarn 2+ or bun passed on (pnpm create tool NAME -- --js) is not the end of the options", () => {
  const parsed = parseArguments(["math", "--", "--exports", "add,multiply", "--js"])
  expect(parsed).toMatchObject({ name: "math", exports: ["add", "multiply"], js: true })
  expect(parseArguments(["--", "math", "--plugin"])).toMatchObject({ name: "math", plugin: true })
})

test.each([
  [["--bogus"], "USAGE", 'Unknown option "--bogus": see create-tool --help.'],
  [["-x"], "USAGE", 'Unknown option "-x": see create-tool --help.'],
  [["-rf"], "USAGE", 'Unknown option "-rf": see create-tool --help.'],
  [["-yr"], "USAGE", 'Unknown option "-yr"'],
  [["--bogus=1"], "USAGE", 'Unknown option "--bogus=1"'],
  [["--tempalte", "x"], "USAGE", 'Unknown option "--tempalte": did you mean --template? See create-tool --help.'],
  [["-force"], "USAGE", 'Unknown option "-force": did you mean --force?'],
  [["--", "-rf", "x"], "USAGE", 'Unknown option "-rf"'],
  [["--dir"], "USAGE", "Option --dir needs a value: see create-tool --help."],
  [["-t"], "USAGE", "Option -t needs a value: see create-tool --help."],
  [["-yt"], "USAGE", "Option -t needs a value"],
  [
    ["--template", "--js"],
    "USAGE",
    'Option --template needs a value, not the option "--js" (for a value that starts with -, write --template=VALUE)',
  ],
  [["--js=yes"], "USAGE", "Option --js takes no value: see create-tool --help."],
  [["-y=1"], "USAGE", 'Unknown option "-y=1"'],
  [["one", "two"], "USAGE", 'Unexpected argument "two"'],
  [["--global", "--plugin"], "CONFLICTING_OPTIONS", "--global and --plugin"],
  [["--global", "--dir", "x"], "CONFLICTING_OPTIONS", "--global and --dir"],
])("%j is a %s error", (argv, code, message) => {
  expect(() => parseArguments(argv)).toThrow(
    expect.objectContaining({ code, message: expect.stringContaining(message) }),
  )
})

test("npm create tool NAME --plugin, without --: the options npm kept for itself are read from npm_config_*", () => {
  // What npm 11 passes on for `npm create tool opencode-weather --plugin --js`.
  const env = {
    npm_config_user_agent: "npm/11.6.2 node/v20.20.0 linux x64 workspaces/false",
    npm_config_plugin: "true",
    npm_config_js: "true",
  }
  expect(parseArguments(["opencode-weather"], env)).toMatchObject({ name: "opencode-weather", plugin: true, js: true })
  // `--template python` before `--`: npm keeps `template=true` and passes `python` on as an argument.
  expect(() => parseArguments(["opencode-weather", "python"], { ...env, npm_config_template: "true" })).toThrow(
    "put create-tool's options after --, as in npm create tool NAME -- --template VALUE",
  )
  // The command line wins over npm's copy; another package manager's environment is not read.
  expect(parseArguments(["x", "--js"], env)).toMatchObject({ js: true })
  expect(parseArguments(["x"], { ...env, npm_config_user_agent: "pnpm/10.34.9 npm/? node/v20.20.0" })).toMatchObject({
    plugin: false,
    template: undefined,
  })
})

test("npm create tool NAME --plugn, without --: a setting npm kept that is one typo from an option is refused, with the option meant", () => {
  // What npm 11.19 passes on for `npm create tool x --plugn --no-tests` (observed), beside its own settings.
  const npm = {
    npm_config_user_agent: "npm/11.19.0 node/v20.20.2 linux x64 workspaces/false",
    npm_config_cache: "/root/.npm",
    npm_config_yes: "true",
    npm_config_audit: "true",
    npm_config_fund: "true",
    npm_config_prefix: "/usr",
    npm_config_global_prefix: "/usr",
    npm_config_local_prefix: "/work",
    npm_config_nodedir: "/usr",
    npm_config_noproxy: "",
    npm_config_package: "create-tool",
    npm_config_init_module: "/root/.npm-init.js",
    npm_config_node_gyp: "/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js",
    npm_config_npm_version: "11.19.0",
    npm_config_userconfig: "/root/.npmrc",
    npm_config_globalconfig: "/usr/etc/npmrc",
    npm_config_update_notifier: "false",
    npm_config_allow_scripts: "",
    npm_config_omit_lockfile_registry_resolved: "",
    npm_config_cafile: "",
    npm_config_registry: "http://127.0.0.1:4873/",
  }
  // npm's own settings alone: nothing refused.
  expect(parseArguments(["x"], npm)).toMatchObject({ name: "x", plugin: false })
  expect(() => parseArguments(["x"], { ...npm, npm_config_plugn: "true" })).toThrow(
    `npm took --plugn for a setting of its own ("Unknown cli config") and create-tool never saw it: did you mean --plugin? Put create-tool's options after --, as in npm create tool NAME -- --plugin.`,
  )
  expect(() => parseArguments(["x"], { ...npm, npm_config_tests: "" })).toThrow(
    "npm took --no-tests for a setting of its own",
  )
  expect(() => parseArguments(["x"], { ...npm, npm_config_tests: "" })).toThrow("did you mean --no-test?")
  expect(() => parseArguments(["x"], { ...npm, npm_config_tempalte: "true" })).toThrow("did you mean --template?")
  // Another package manager passes options on as typed: its environment is not read.
  expect(
    parseArguments(["x"], { ...npm, npm_config_plugn: "true", npm_config_user_agent: "pnpm/10.34.9" }),
  ).toMatchObject({ name: "x" })
})
