import path from "node:path"
import { describe, expect, test } from "vitest"
import type { OpencodeConfig } from "../src/config/opencode-config.ts"
import { evaluate, rulesFromConfig, wildcardMatch } from "../src/config/permission.ts"
import type { ToolTesterError } from "../src/index.ts"
import { checkExternalDirectory, listTools, loadTools, runTool } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

describe("opencode.json merging", () => {
  test("merges project files farthest first and .opencode files after them, deeply", async () => {
    const tenLines = `return Array.from({ length: 10 }, (_, i) => "l" + i).join("\\n")`
    const directory = tmpProject({
      "opencode.json": `{ "tool_output": { "max_lines": 5, "max_bytes": 1000 }, "permission": { "*": "allow", "perm_a": "deny", "perm_c": "deny" } }`,
      "sub/opencode.json": `{ "tool_output": { "max_lines": 8 }, "permission": { "perm_b": "deny", "perm_c": "allow", "perm_f": "deny" } }`,
      ".opencode/opencode.json": `{ "permission": { "perm_f": "allow", "perm_d": "deny" } }`,
      "sub/.opencode/opencode.json": `{ "permission": { "perm_d": "allow", "perm_e": "deny" } }`,
      ".opencode/tools/ten.ts": toolSource("ten", tenLines),
      ...Object.fromEntries(
        ["a", "b", "c", "d", "e", "f"].map((name) => [`.opencode/tools/perm_${name}.ts`, toolSource(name)]),
      ),
    })
    const { env, home } = isolatedEnvironment()
    const loaded = await loadTools({ directory: path.join(directory, "sub"), env, home })
    expect(loaded.config.tool_output).toEqual({ max_lines: 8, max_bytes: 1000 })
    const ids = listTools(loaded).map((tool) => tool.id)
    expect(ids.filter((id) => id.startsWith("perm_"))).toEqual(["perm_c", "perm_f"])
    const data = tmpProject({}, { git: false })
    expect((await runTool(loaded, "ten", {}, { dataDirectory: data })).output).toContain("...2 lines truncated...")
  })

  test("reads the global opencode.json unless global is off", async () => {
    const { env, home } = isolatedEnvironment({
      ".config/opencode/opencode.json": `{ "permission": { "task": "deny" } }`,
    })
    const directory = tmpProject({})
    expect(listTools(await loadTools({ directory, env, home })).map((tool) => tool.id)).not.toContain("task")
    expect(listTools(await loadTools({ directory, env, home, global: false })).map((tool) => tool.id)).toContain("task")
  })

  test("a config file that is not valid JSON fails with its path and what to do", async () => {
    const directory = tmpProject({ "opencode.json": `{ "permission": ` })
    await expect(loadTools({ directory, global: false })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(
        /opencode\.json: cannot read the opencode config \(.+ at offset \d+\); fix the file$/,
      ),
    })
  })
})

describe("tool_output limits", () => {
  const refused: Array<[string, unknown, string]> = [
    ["max_lines", 0, "0"],
    ["max_lines", -1, "-1"],
    ["max_lines", "2", '"2"'],
    ["max_lines", 1.5, "1.5"],
    ["max_lines", null, "null"],
    ["max_bytes", 0, "0"],
    ["max_bytes", -1, "-1"],
    ["max_bytes", "2", '"2"'],
    ["max_bytes", 0.5, "0.5"],
    ["max_bytes", true, "true"],
  ]
  test.each(refused)(
    "tool_output.%s = %j fails with the file, the key, the value and what opencode requires",
    async (key, value, shown) => {
      const directory = tmpProject({ "opencode.json": JSON.stringify({ tool_output: { [key]: value } }) })
      const file = path.join(directory, "opencode.json")
      const error = await loadTools({ directory, global: false }).catch((caught: unknown) => caught)
      expect(error).toMatchObject({ code: "CONFIG_INVALID", data: { file, key: `tool_output.${key}`, value } })
      expect((error as Error).message).toBe(
        `${file}: tool_output.${key} is ${shown}, but opencode requires a whole number greater than 0; opencode refuses to start with it: set a positive whole number, or remove the key for the default (${key === "max_lines" ? 2000 : 51200})`,
      )
    },
  )

  test("a tool_output that is not an object fails too", async () => {
    const directory = tmpProject({ ".opencode/opencode.json": `{ "tool_output": 5 }` })
    await expect(loadTools({ directory, global: false })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("tool_output is 5, but opencode requires an object"),
      data: { file: path.join(directory, ".opencode", "opencode.json"), key: "tool_output", value: 5 },
    })
  })

  test("whole numbers greater than 0 are taken, in every file", async () => {
    const directory = tmpProject({
      "opencode.json": `{ "tool_output": { "max_lines": 1 } }`,
      ".opencode/opencode.json": `{ "tool_output": { "max_bytes": 1e6 } }`,
    })
    const loaded = await loadTools({ directory, global: false })
    expect(loaded.config.tool_output).toEqual({ max_lines: 1, max_bytes: 1_000_000 })
  })
})

describe("attachment.image settings", () => {
  // Each refused by the 1.18.34 binary (`tool-tester e2e --config '{"attachment":...}'`: "Configuration is invalid").
  const refused: Array<[unknown, string, string]> = [
    [5, "attachment", 'attachment is 5, but opencode requires an object such as {"image": {"max_width": 2000}}'],
    [{ image: null }, "attachment.image", "attachment.image is null, but opencode requires an object such as"],
    [
      { image: { auto_resize: "no" } },
      "attachment.image.auto_resize",
      'auto_resize is "no", but opencode requires true or false',
    ],
    [
      { image: { max_width: 0 } },
      "attachment.image.max_width",
      "max_width is 0, but opencode requires a whole number greater than 0",
    ],
    [
      { image: { max_height: 150.5 } },
      "attachment.image.max_height",
      "max_height is 150.5, but opencode requires a whole number",
    ],
    [
      { image: { max_base64_bytes: "x" } },
      "attachment.image.max_base64_bytes",
      'max_base64_bytes is "x", but opencode',
    ],
    [{ image: { max_width: null } }, "attachment.image.max_width", "max_width is null, but opencode requires"],
  ]
  test.each(refused)(
    "attachment = %j fails with the file, the key and what opencode requires",
    async (attachment, key, says) => {
      const directory = tmpProject({ "opencode.json": JSON.stringify({ attachment }) })
      const error = await loadTools({ directory, global: false }).catch((caught: unknown) => caught)
      expect(error).toMatchObject({
        code: "CONFIG_INVALID",
        data: { file: path.join(directory, "opencode.json"), key },
      })
      expect((error as Error).message).toContain(says)
      expect((error as Error).message).toContain("opencode refuses to start with it")
    },
  )

  test("the config option is checked the same way, and other keys are left alone as opencode leaves them", async () => {
    const directory = tmpProject({})
    await expect(
      loadTools({ directory, global: false, config: { attachment: { image: { max_width: -5 } } } }),
    ).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(/^the config given: attachment\.image\.max_width is -5, but opencode requires/),
      data: { file: "(config option)", key: "attachment.image.max_width", value: -5 },
    })
    const loaded = await loadTools({
      directory,
      global: false,
      config: {
        attachment: { other: 1, image: { max_width: 100, extra: 1 } } as NonNullable<OpencodeConfig["attachment"]>,
      },
    })
    expect(loaded.config.attachment).toEqual({ other: 1, image: { max_width: 100, extra: 1 } })
  })
})

describe("permission rules", () => {
  test("match opencode's wildcards", () => {
    expect(wildcardMatch("/tmp/x/*", "/tmp/*")).toBe(true)
    expect(wildcardMatch("abc", "a?c")).toBe(true)
    expect(wildcardMatch("git status", "git *")).toBe(true)
    expect(wildcardMatch("git", "git *")).toBe(true)
    expect(wildcardMatch("gitx", "git *")).toBe(false)
    expect(wildcardMatch("a.b", "a*b")).toBe(true)
    expect(wildcardMatch("axb", "a.b")).toBe(false)
  })

  test("take the last matching rule, expand ~ in patterns, and default to ask", () => {
    const rules = rulesFromConfig({ "*": "allow", read: { "*": "allow", "~/secret/*": "deny" } }, "/home/me")
    expect(rules).toContainEqual({ permission: "read", action: "deny", pattern: "/home/me/secret/*" })
    expect(evaluate("read", "/home/me/secret/a", rules).action).toBe("deny")
    expect(evaluate("read", "/elsewhere", rules).action).toBe("allow")
    expect(evaluate("anything", "x", []).action).toBe("ask")
  })
})

describe("checkExternalDirectory", () => {
  test("passes paths in the project or worktree and builds opencode's request for others", async () => {
    const directory = tmpProject({
      "opencode.json": `{ "permission": { "external_directory": { "/data/*": "allow" } } }`,
    })
    const { env, home } = isolatedEnvironment()
    const loaded = await loadTools({ directory, env, home })
    expect(checkExternalDirectory(loaded, "src/a.ts")).toEqual({ inside: true })
    expect(checkExternalDirectory(loaded, "/etc/hosts")).toEqual({
      inside: false,
      request: {
        permission: "external_directory",
        patterns: ["/etc/*"],
        always: ["/etc/*"],
        metadata: { filepath: "/etc/hosts", parentDir: "/etc" },
      },
      decision: "ask",
    })
    expect(checkExternalDirectory(loaded, "/data", { kind: "directory" })).toMatchObject({ decision: "allow" })
    expect(checkExternalDirectory({ ...loaded, worktree: "/" }, path.join(directory, "x"))).toEqual({ inside: true })
  })

  test("a target that is not a path string, an unknown option or kind is USAGE naming it, not a TypeError or a wrong answer", () => {
    const project = { directory: "/project", worktree: "/", config: {} }
    const refusal = (call: () => unknown) => {
      try {
        call()
      } catch (error) {
        return { code: (error as ToolTesterError).code, option: (error as ToolTesterError).data?.["option"] }
      }
      return "no error"
    }
    expect(refusal(() => checkExternalDirectory(project, 5 as never))).toEqual({ code: "USAGE", option: "target" })
    expect(refusal(() => checkExternalDirectory(project, new URL("file:///etc/hosts") as never))).toEqual({
      code: "USAGE",
      option: "target",
    })
    expect(refusal(() => checkExternalDirectory(project, "/etc", "directory" as never))).toEqual({
      code: "USAGE",
      option: "options",
    })
    expect(refusal(() => checkExternalDirectory(project, "/etc", { kind: "folder" as never }))).toEqual({
      code: "USAGE",
      option: "kind",
    })
    expect(refusal(() => checkExternalDirectory(project, "/etc", { type: "directory" } as never))).toEqual({
      code: "USAGE",
      option: "type",
    })
  })
})
