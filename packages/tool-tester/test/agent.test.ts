// ctx.agent as opencode 1.18.34 chooses it (docs/opencode-contract.md#agent; the `agent` golden):
// the asked agent when it is a primary one, else default_agent from any config layer or a plugin's
// config hook, else build.
import { describe, expect, onTestFinished, test } from "vitest"
import { diagnose } from "../src/doctor/diagnose.ts"
import { closeProject, loadTools, runTool, ToolTesterError } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

const whoami = toolSource("who runs this", 'return "agent=" + context.agent')
const probeAgent = { probe: { mode: "primary", description: "a probe agent" } }

/** A plugin whose config hook sets default_agent (and defines it when asked). */
const setAgentPlugin = `export const SetAgent = async (_input, options) => ({
  async config(config) {
    if (options?.throw === true) throw new Error("config hook failed")
    if (options?.define === true) config.agent = { ...config.agent, [options.agent]: { mode: "primary" } }
    config.default_agent = options.agent
  },
})
`

async function agentOf(
  files: Record<string, string>,
  options: { agent?: string; global?: Record<string, string> } = {},
): Promise<string> {
  const directory = tmpProject({ ".opencode/tools/whoami.ts": whoami, ...files })
  const { env, home } = isolatedEnvironment(options.global ?? {})
  const project = await loadTools({ directory, env, home, engine: "node" })
  onTestFinished(() => closeProject(project))
  const result = await runTool(project, "whoami", {}, options.agent === undefined ? {} : { agent: options.agent })
  return result.output
}

describe("the agent a tool gets", () => {
  test("is build when nothing chooses one", async () => {
    expect(await agentOf({})).toBe("agent=build")
  })

  test("is the project config's default_agent, a built-in one or one it defines", async () => {
    expect(await agentOf({ "opencode.json": JSON.stringify({ default_agent: "plan" }) })).toBe("agent=plan")
    const defined = { default_agent: "probe", agent: probeAgent }
    expect(await agentOf({ "opencode.json": JSON.stringify(defined) })).toBe("agent=probe")
  })

  test("is the default_agent of the global config and of a .opencode folder's config", async () => {
    const global = { ".config/opencode/opencode.json": JSON.stringify({ default_agent: "plan" }) }
    expect(await agentOf({}, { global })).toBe("agent=plan")
    const folder = { ".opencode/opencode.json": JSON.stringify({ default_agent: "probe", agent: probeAgent }) }
    expect(await agentOf({ "opencode.json": JSON.stringify({ default_agent: "plan" }), ...folder })).toBe("agent=probe")
  })

  test("is what a plugin's config hook sets as default_agent, with the agent it defines", async () => {
    const config = { plugin: [["./set-agent.js", { agent: "orchestrator", define: true }]] }
    expect(await agentOf({ "opencode.json": JSON.stringify(config), "set-agent.js": setAgentPlugin })).toBe(
      "agent=orchestrator",
    )
  })

  test("is the asked agent when it is a primary one, over default_agent", async () => {
    expect(await agentOf({}, { agent: "plan" })).toBe("agent=plan")
    const config = { default_agent: "probe", agent: probeAgent }
    expect(await agentOf({ "opencode.json": JSON.stringify(config) }, { agent: "plan" })).toBe("agent=plan")
    expect(await agentOf({ "opencode.json": JSON.stringify({ agent: probeAgent }) }, { agent: "probe" })).toBe(
      "agent=probe",
    )
  })

  test("falls back to the default agent when the asked one is a subagent or does not exist", async () => {
    expect(await agentOf({}, { agent: "explore" })).toBe("agent=build")
    const config = { default_agent: "plan" }
    expect(await agentOf({ "opencode.json": JSON.stringify(config) }, { agent: "nobody" })).toBe("agent=plan")
  })

  test("a default_agent opencode refuses is a load error, and a call throws it", async () => {
    for (const [name, reason] of [
      ["explore", 'default agent "explore" is a subagent'],
      ["nobody", 'default agent "nobody" not found'],
      ["title", 'default agent "title" is hidden'],
    ] as const) {
      const directory = tmpProject({
        ".opencode/tools/whoami.ts": whoami,
        "opencode.json": JSON.stringify({ default_agent: name }),
      })
      const { env, home } = isolatedEnvironment()
      const project = await loadTools({ directory, env, home, engine: "node" })
      onTestFinished(() => closeProject(project))
      const problem = project.diagnostics.find((diagnostic) => diagnostic.data?.["key"] === "default_agent")
      expect(problem).toMatchObject({ code: "CONFIG_INVALID", severity: "error" })
      expect(problem?.message).toContain(reason)
      expect(diagnose(project, { cwd: directory })).toContainEqual(
        expect.objectContaining({
          code: "CONFIG_INVALID",
          severity: "error",
          message: expect.stringContaining(reason),
        }),
      )
      const thrown = await runTool(project, "whoami", {}).catch((error: unknown) => error)
      expect(ToolTesterError.isInstance(thrown) && thrown.code).toBe("CONFIG_INVALID")
    }
  })

  test("a config hook that throws is a warning; the config stays as the hooks left it", async () => {
    const config = { default_agent: "plan", plugin: [["./set-agent.js", { agent: "probe", throw: true }]] }
    const directory = tmpProject({
      ".opencode/tools/whoami.ts": whoami,
      "opencode.json": JSON.stringify(config),
      "set-agent.js": setAgentPlugin,
    })
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({ directory, env, home, engine: "node" })
    onTestFinished(() => closeProject(project))
    expect(project.diagnostics).toEqual([expect.objectContaining({ code: "PLUGIN_LOAD_FAILED", severity: "warning" })])
    expect((await runTool(project, "whoami", {})).output).toBe("agent=plan")
  })
})
