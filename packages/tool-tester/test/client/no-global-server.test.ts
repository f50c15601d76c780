// `--no-global` (the library's `global: false`) keeps the user's global config out of the opencode
// server behind a plugin's input.client too: its provider keys and agents never reach the plugin.
import { describe, expect, onTestFinished, test } from "vitest"
import type { ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { opencode } from "../helpers.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

type Engine = "node" | "bun"

const SECRET = "sk-global-secret-0123456789"

/** A home whose global config has a provider with a key, and an agent of its own. */
function userHome() {
  return isolatedEnvironment({
    ".config/opencode/opencode.json": JSON.stringify({
      provider: {
        globalprovider: {
          npm: "@ai-sdk/openai-compatible",
          options: { apiKey: SECRET, baseURL: "http://127.0.0.1:9/v1" },
          models: { model: { name: "model" } },
        },
      },
    }),
    ".config/opencode/agent/globalagent.md":
      "---\ndescription: an agent of the user's own\nmode: subagent\n---\nYou are the user's agent.\n",
  })
}

const LOOKING_PLUGIN = `import { tool } from "@opencode-ai/plugin"
export const Looker = async (input) => ({
  tool: {
    look: tool({
      description: "reads what the server knows",
      args: {},
      async execute() {
        const config = await input.client.config.get()
        const agents = await input.client.app.agents()
        return JSON.stringify({ config: config.data, agents: agents.data.map((agent) => agent.name) })
      },
    }),
  },
})
`

async function look(engine: Engine, global: boolean): Promise<string> {
  const directory = tmpProject({ ".opencode/plugins/looker.ts": LOOKING_PLUGIN })
  const { env, home } = userHome()
  const project: ToolProject = await loadTools({
    directory,
    env,
    home,
    engine,
    global,
    ...(engine === "bun" && opencode.binary ? { engineBinary: opencode.binary } : {}),
  })
  onTestFinished(() => closeProject(project))
  const result = await runTool(project, "look", {}, { timeoutMs: 300_000 })
  expect(result.status, result.output).toBe("completed")
  return result.output
}

const engines: Engine[] = ["node", "bun"]

describe.each(engines)("the client's server under the %s engine", { timeout: 600_000 }, (engine) => {
  test.skipIf(!opencode.binary)(
    `with global: false it reads no global provider key and no global agent (${opencode.reason ?? "real server"})`,
    async () => {
      const isolated = await look(engine, false)
      expect(isolated).not.toContain(SECRET)
      expect(JSON.parse(isolated).agents).not.toContain("globalagent")
    },
  )
})

test.skipIf(!opencode.binary)(
  `without --no-global the server reads the global config, as opencode does (${opencode.reason ?? "real server"})`,
  { timeout: 600_000 },
  async () => {
    const shared = await look("node", true)
    expect(shared).toContain(SECRET)
    expect(JSON.parse(shared).agents).toContain("globalagent")
  },
)
