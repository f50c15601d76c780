import path from "node:path"
import { describe, expect, test } from "vitest"
import { evaluate, rulesFromConfig, wildcardMatch } from "../src/config/permission.ts"
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
})
