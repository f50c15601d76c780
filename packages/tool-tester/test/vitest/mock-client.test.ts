// mockClient: the one-line client stub of the vitest entry, under both engines (the bun engine's
// plugins call it across the engine channel, so the mocks record calls made in Bun).
import { describe, expect, onTestFinished, test } from "vitest"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { mockClient } from "../../src/vitest/index.ts"
import { opencode } from "../helpers.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

const plugin = `export const Logs = async ({ client }) => {
  await client.app.log({ body: { service: "weather", level: "info", message: "ready" } })
  return { tool: {
    agents: { description: "", args: {}, execute: async () => (await client.app.agents()).data.map((a) => a.name).join(",") },
    authorize: { description: "", args: {}, execute: async () => (await client.provider.oauth.authorize({ path: { id: "x" } })).data },
  } }
}
`

describe.each(["node", "bun"] as const)("mockClient under the %s engine", { timeout: 120_000 }, (engine) => {
  test.skipIf(engine === "bun" && !opencode.binary)(
    `answers with the values and functions given, and records the plugin's calls (${opencode.reason ?? "with the repository's opencode"})`,
    async () => {
      const client = mockClient({
        app: { log: { data: true }, agents: async () => ({ data: [{ name: "build" }, { name: "plan" }] }) },
        provider: { oauth: { authorize: { data: "authorized" } } },
      })
      const { env, home } = isolatedEnvironment()
      const project = await loadTools({
        directory: tmpProject({ ".opencode/plugins/logs.ts": plugin }),
        env,
        home,
        engine,
        ...(engine === "bun" && opencode.binary ? { engineBinary: opencode.binary } : {}),
        client,
      })
      onTestFinished(() => closeProject(project))
      expect(project.diagnostics).toEqual([])
      expect(client.app.log).toHaveBeenCalledWith({ body: { service: "weather", level: "info", message: "ready" } })
      expect((await runTool(project, "agents", {})).output).toBe("build,plan")
      expect(client.app.agents).toHaveBeenCalledTimes(1)
      expect((await runTool(project, "authorize", {})).output).toBe("authorized")
    },
  )
})
