// `input.client`, `input.$` and `input.serverUrl` as plugins get them from the library, under both
// engines (docs/fidelity.md#inputclient): a real opencode server started from the repository's
// opencode binary when a plugin first calls the client, a test's stub, or none.
import { describe, expect, onTestFinished, test } from "vitest"
import type { ClientStub, LoadToolsOptions, ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { opencode } from "../helpers.ts"
import { serversHidden, serversIn } from "../support/servers.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

type Engine = "node" | "bun"

async function load(directory: string, engine: Engine, options: Partial<LoadToolsOptions> = {}): Promise<ToolProject> {
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({
    directory,
    env,
    home,
    engine,
    ...(engine === "bun" && opencode.binary ? { engineBinary: opencode.binary } : {}),
    ...options,
  })
  onTestFinished(() => closeProject(project))
  return project
}

const talkingPlugin = `import { tool } from "@opencode-ai/plugin"
export const Talk = async (input) => {
  const logged = await input.client.app.log({ body: { service: "talk", level: "info", message: "init" } })
  let listed = "pending"
  input.client.provider.list().then((answer) => { listed = answer.error ? "error" : "done" })
  return {
    tool: {
      talk: tool({
        description: "talks to opencode",
        args: {},
        async execute(_args, ctx) {
          const agents = await input.client.app.agents()
          const messages = await input.client.session.messages({ path: { id: ctx.sessionID } })
          const session = await input.client.session.get({ path: { id: ctx.sessionID } })
          return JSON.stringify({
            log: logged.data,
            listed,
            serverUrl: String(input.serverUrl),
            agents: agents.data.map((agent) => agent.name).sort().join(","),
            messages: messages.data.map((message) => ({
              role: message.info.role,
              parts: message.parts.map((part) => part.type + (part.state ? ":" + part.state.status : "")),
              text: message.parts.find((part) => part.type === "text")?.text,
              id: message.info.id,
            })),
            session: session.data.id === ctx.sessionID,
            messageID: ctx.messageID,
          })
        },
      }),
    },
  }
}
`

const engines: Engine[] = ["node", "bun"]

describe.each(engines)("input.client under the %s engine", { timeout: 600_000 }, (engine) => {
  test.skipIf(!opencode.binary || serversHidden !== undefined)(
    `a real opencode server answers at init and in execute, with the call's session, and closeProject ends it (${opencode.reason ?? serversHidden ?? "real server"})`,
    async () => {
      const directory = tmpProject({ ".opencode/plugins/talk.ts": talkingPlugin })
      const project = await load(directory, engine)
      expect(project.diagnostics).toEqual([])
      const result = await runTool(project, "talk", {}, { prompt: "say hi", timeoutMs: 300_000 })
      expect(result.status, result.output).toBe("completed")
      const seen = JSON.parse(result.output)
      expect(seen).toMatchObject({
        log: true,
        listed: "done",
        agents: "build,compaction,explore,general,plan,summary,title",
        session: true,
      })
      expect(seen.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      expect(seen.messages).toEqual([
        { role: "user", parts: ["text"], text: "say hi", id: expect.stringMatching(/^msg_/) },
        { role: "assistant", parts: ["step-start", "tool:pending"], id: seen.messageID },
      ])
      expect(serversIn(directory)).toHaveLength(1)
      closeProject(project)
      await expect.poll(() => serversIn(directory), { timeout: 30_000 }).toEqual([])
    },
  )

  test.skipIf(serversHidden !== undefined)(
    `a project whose plugins never call the client starts no server${serversHidden === undefined ? "" : ` (${serversHidden})`}`,
    async () => {
      const directory = tmpProject({
        ".opencode/plugins/quiet.ts": `export const Quiet = async ({ client }) => ({ tool: { quiet: { description: "", args: {}, execute: async () => typeof client.app.log } } })\n`,
      })
      const project = await load(directory, engine)
      expect((await runTool(project, "quiet", {})).output).toBe("function")
      expect(serversIn(directory)).toEqual([])
    },
  )

  test("awaiting, during init, a call opencode answers only after init is PLUGIN_INIT_HANGS naming the call; not awaited, it runs once init is over", async () => {
    const stub: ClientStub = {
      app: { agents: async () => ({ data: [{ name: "build" }] }) },
      config: { get: async () => ({ data: { from: "stub" } }) },
      session: { list: async () => ({ data: [] }) },
    }
    const directory = tmpProject({
      ".opencode/plugins/waits.ts": `export const Waits = async (input) => { await input.client.app.agents(); return {} }\n`,
      ".opencode/plugins/all.ts": `export const AwaitsAll = async ({ client }) => { await Promise.allSettled([client.session.list()]); return {} }\n`,
      ".opencode/plugins/later.ts": `let initOver = false
let seen = "not yet"
export const Later = async ({ client }) => {
  client.config.get().then((answer) => { seen = (initOver ? "after init: " : "during init: ") + answer.data.from })
  initOver = true
  return { tool: { later: { description: "", args: {}, execute: async () => seen } } }
}
`,
    })
    const project = await load(directory, engine, { client: stub })
    expect(project.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["PLUGIN_INIT_HANGS", "PLUGIN_INIT_HANGS"])
    expect(project.diagnostics.map((diagnostic) => diagnostic.message).sort()).toEqual([
      expect.stringContaining(
        "plugin function AwaitsAll awaits input.client.session.list() during init: opencode 1.18.34 never answers that call before every plugin has initialised",
      ),
      expect.stringContaining("plugin function Waits awaits input.client.app.agents() during init"),
    ])
    expect((await runTool(project, "later", {})).output).toBe("after init: stub")
  })

  test("a client stub answers the calls it has, with the plugin's arguments; a method it lacks rejects naming it", async () => {
    const stub: ClientStub = {
      app: { log: async (options: { body: { message: string } }) => ({ data: `logged ${options.body.message}` }) },
    }
    const directory = tmpProject({
      ".opencode/plugins/stubbed.ts": `export const Stubbed = async ({ client, serverUrl }) => {
  const logged = await client.app.log({ body: { service: "s", level: "info", message: "at init" } })
  return { tool: {
    logged: { description: "", args: {}, execute: async () => logged.data + " " + String(serverUrl) },
    agents: { description: "", args: {}, execute: async () => JSON.stringify(await client.app.agents()) },
  } }
}
`,
    })
    const project = await load(directory, engine, { client: stub })
    expect(project.diagnostics).toEqual([])
    expect((await runTool(project, "logged", {})).output).toBe("logged at init http://localhost:4096/")
    expect(await runTool(project, "agents", {})).toMatchObject({
      status: "error",
      error: { code: "TOOL_THREW" },
      output:
        "input.client.app.agents() is not in the client stub this project was loaded with: add app.agents to the stub, or load the project without { client } to get a real opencode server",
    })
  })

  test("a client call that never answers is bounded by the call's timeout, which names it", async () => {
    const stub: ClientStub = { session: { prompt: () => new Promise(() => {}) } }
    const directory = tmpProject({
      ".opencode/plugins/waits.ts": `export const Waits = async ({ client }) => ({ tool: { ask: { description: "", args: {}, execute: async () => JSON.stringify(await client.session.prompt({ path: { id: "x" }, body: { parts: [] } })) } } })\n`,
    })
    const project = await load(directory, engine, { client: stub })
    const result = await runTool(project, "ask", {}, { timeoutMs: 2_000 })
    expect(result).toMatchObject({ status: "error", error: { code: "TOOL_TIMEOUT" } })
    expect(result.error?.message).toContain("(it was waiting for input.client.session.prompt())")
  })
})

describe("an opencode server that cannot serve the project", { timeout: 300_000 }, () => {
  test.skipIf(!opencode.binary)(
    `a config opencode rejects: the client call fails with CLIENT_UNAVAILABLE and opencode's own message (${opencode.reason ?? "with the repository's opencode"})`,
    async () => {
      const directory = tmpProject({
        "opencode.json": `{ "model": 42 }`,
        ".opencode/plugins/logs.ts": `export const Logs = async ({ client }) => ({ tool: { log: { description: "", args: {}, execute: async () => JSON.stringify(await client.app.log({ body: { service: "s", level: "info", message: "m" } })) } } })\n`,
      })
      const project = await load(directory, "bun")
      const result = await runTool(project, "log", {}, { timeoutMs: 300_000 })
      expect(result.status).toBe("error")
      expect(result.output).toBe(
        `the opencode server behind input.client did not start: opencode rejects the project: ConfigInvalidError: ${directory}/opencode.json: model: Expected string | undefined, got 42`,
      )
    },
  )
})

describe("input.$", { timeout: 300_000 }, () => {
  test.skipIf(!opencode.binary)(
    `under the bun engine it is Bun's shell, in the project folder (${opencode.reason ?? "with the repository's opencode"})`,
    async () => {
      const directory = tmpProject({
        ".opencode/plugins/shell.ts": `export const Shell = async (input) => {
  const said = (await input.$\`echo shell-ok\`.text()).trim()
  return { tool: { where: { description: "", args: {}, execute: async () => said + " " + (await input.$\`pwd\`.text()).trim() } } }
}
`,
      })
      const project = await load(directory, "bun")
      expect(project.diagnostics).toEqual([])
      expect((await runTool(project, "where", {})).output).toBe(`shell-ok ${directory}`)
    },
  )

  test("under the node engine the plugin loads, and using $ fails saying why", async () => {
    const directory = tmpProject({
      ".opencode/plugins/shell.ts": `export const UsesShell = async (input) => ({ tool: { sh: { description: "", args: {}, execute: async () => input.$\`echo hi\`.text() } } })\n`,
    })
    const project = await load(directory, "node")
    expect(project.diagnostics).toEqual([])
    expect((await runTool(project, "sh", {})).output).toBe(
      "input.$ is Bun's shell, which the node engine (Node) does not have: run with --engine bun (opencode's own Bun), or test this part with tool-tester e2e",
    )
  })
})
