// Records what `opencode serve` offers a tool that wants a server of its own
// (docs/opencode-contract.md#server): how it reports its URL, its auth, which project it serves and
// whether it loads that project's plugins, and which config keeps every model request on the
// machine. From packages/tool-tester:
//
//   node --import tsx test/conformance/observe-serve.ts [--opencode PATH]
//
// It starts the binary several times on `serve-project/` (a copy, with a throw-away home, as e2e
// runs do) against the scripted mock model, and writes `../golden/server/serve.json`:
//   { "opencodeVersion", "scenarios": [{ "name", "args", "env" (names set beyond e2e's), "config"
//     (over e2e's mock provider), "stdout" (lines, port as <port>), "answers": { "firstAnswer" (the
//     status of the first GET /path, or "none within <bound> ms"), label: answer,
//     "pluginServerUrl" (String(input.serverUrl) as serve-project/init-probe.ts saw it) } }] }
// Run-specific text is replaced as in generate-golden.ts (<directory>, <home>, <sandbox>, <port>,
// ids as <id>). Timings (start to the "listening" line, to the first answer) are printed, not
// recorded: they depend on the machine.

import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { resolveOpencode } from "../../src/opencode/opencode-binary.ts"
import { endProcessTree } from "../../src/runtime/process-tree.ts"
import { startMockModel } from "../../src/e2e/mock-model.ts"
import { defaultProviderPackage } from "../../src/e2e/opencode-config.ts"
import { findPluginPackage } from "../../src/opencode/plugin-package.ts"
import { createSandbox } from "../../src/opencode/sandbox.ts"
import { configureSandbox } from "../../src/e2e/sandbox-setup.ts"

interface Scenario {
  name: string
  args: string[]
  env: Record<string, string>
  config: Record<string, unknown>
  probe: (server: Server) => Promise<Record<string, unknown>>
}

interface Server {
  url: string
  project: string
  /** GET with `?directory=<project>` unless `directory` is false, with the scenario's auth unless `authorised` is false. */
  get(
    path: string,
    headers?: Record<string, string>,
    directory?: boolean,
    authorised?: boolean,
  ): Promise<{ status: number; body: unknown; headers: Headers }>
  post(path: string, body: unknown): Promise<{ status: number; body: unknown }>
  mockRequests(): string[]
}

const projectDirectory = fileURLToPath(new URL("./serve-project", import.meta.url))
const goldenFile = fileURLToPath(new URL("../golden/server/serve.json", import.meta.url))
const fakeKeys = { ANTHROPIC_API_KEY: "probe-fake-key", OPENAI_API_KEY: "probe-fake-key" }
const password = "probe-secret"
const firstAnswerBoundMs = 30_000

const providers = async (server: Server): Promise<Record<string, unknown>> => {
  const answer = await server.get("/provider")
  const body = answer.body as { all: Array<{ id: string }>; connected: string[]; default: Record<string, string> }
  // With every provider of the bundled catalogue listed, only their number is recorded. `connected`
  // depends on the API keys in the environment (the scenario sets two fake ones).
  const all = body.all.map((provider) => provider.id).sort()
  return {
    status: answer.status,
    all: all.length > 10 ? `${all.length} providers` : all,
    connected: [...body.connected].sort(),
    default: all.length > 10 ? `${Object.keys(body.default).length} entries` : body.default,
  }
}

const toolIds = async (server: Server): Promise<unknown> => {
  const answer = await server.get("/experimental/tool/ids")
  const ids = answer.body as string[]
  return { status: answer.status, customTools: ids.filter((id) => id === "served_marker"), count: ids.length }
}

const scenarios: Scenario[] = [
  {
    name: "mock-only",
    args: [],
    env: fakeKeys,
    config: { enabled_providers: ["mock"] },
    probe: async (server) => {
      const session = await server.post("/session", {})
      const id = (session.body as { id: string }).id
      const prompt = await server.post(`/session/${id}/message`, { parts: [{ type: "text", text: "hello server" }] })
      const reply = prompt.body as { info: Record<string, unknown>; parts: Array<{ type: string; text?: string }> }
      const messages = await server.get(`/session/${id}/message`)
      return {
        path: (await server.get("/path")).body,
        pathWithoutDirectory: (await server.get("/path", {}, false)).body,
        providers: await providers(server),
        toolIds: await toolIds(server),
        sessionCreate: { status: session.status, id: typeof id },
        prompt: {
          status: prompt.status,
          role: reply.info["role"],
          providerID: reply.info["providerID"],
          modelID: reply.info["modelID"],
          parts: reply.parts.map((part) => (part.type === "text" ? `text: ${part.text}` : part.type)),
        },
        messages: (messages.body as Array<{ info: { role: string } }>).map((message) => message.info.role),
        modelRequests: server.mockRequests(),
      }
    },
  },
  {
    name: "without-enabled-providers",
    args: [],
    env: fakeKeys,
    config: {},
    probe: async (server) => ({ providers: await providers(server) }),
  },
  {
    name: "pure",
    args: ["--pure"],
    env: {},
    config: { enabled_providers: ["mock"] },
    probe: async (server) => ({ toolIds: await toolIds(server) }),
  },
  {
    name: "plugin-server-url",
    args: [],
    env: {},
    config: { enabled_providers: ["mock"], plugin: ["./init-probe.ts"] },
    probe: async () => ({}),
  },
  {
    name: "plugin-awaits-agents",
    args: [],
    env: {},
    config: { enabled_providers: ["mock"], plugin: [["./init-probe.ts", { awaitAgents: true }]] },
    probe: async () => ({}),
  },
  {
    name: "password",
    args: [],
    env: { OPENCODE_SERVER_PASSWORD: password },
    config: { enabled_providers: ["mock"] },
    probe: async (server) => {
      const basic = (user: string, secret: string) => Buffer.from(`${user}:${secret}`).toString("base64")
      const status = async (path: string, headers: Record<string, string> = {}) => {
        const answer = await server.get(path, headers, true, false)
        return { status: answer.status, "www-authenticate": answer.headers.get("www-authenticate") }
      }
      return {
        noAuth: await status("/path"),
        basic: await status("/path", { authorization: `Basic ${basic("opencode", password)}` }),
        wrongUser: await status("/path", { authorization: `Basic ${basic("someone", password)}` }),
        wrongPassword: await status("/path", { authorization: `Basic ${basic("opencode", "nope")}` }),
        authTokenQuery: await status(`/path?auth_token=${encodeURIComponent(basic("opencode", password))}`),
        bearer: await status("/path", { authorization: `Bearer ${password}` }),
      }
    },
  },
]

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const opencodeIndex = args.indexOf("--opencode")
  const opencodeArg = opencodeIndex === -1 ? undefined : args[opencodeIndex + 1]
  const opencode = await resolveOpencode(opencodeArg === undefined ? {} : { opencode: opencodeArg })
  const opencodeVersion = execFileSync(opencode, ["--version"], { encoding: "utf8" }).trim()
  const recorded = []
  for (const scenario of scenarios) recorded.push(await observe(opencode, scenario))
  mkdirSync(join(goldenFile, ".."), { recursive: true })
  writeFileSync(goldenFile, `${JSON.stringify({ opencodeVersion, scenarios: recorded }, null, 2)}\n`)
}

async function observe(opencode: string, scenario: Scenario): Promise<unknown> {
  const sandbox = await createSandbox({ directory: projectDirectory, copyProject: true })
  const mock = await startMockModel({ script: { turns: [{ text: "served-ok" }] } })
  let child: ChildProcess | undefined
  try {
    const setup = await configureSandbox(
      sandbox,
      {
        baseURL: mock.baseURL,
        model: "mock-model",
        providerPackage: defaultProviderPackage,
        plugins: [],
        config: scenario.config,
      },
      {
        pluginPackage: await findPluginPackage(projectDirectory),
        configDirectories: [sandbox.globalConfigDirectory, join(sandbox.project, ".opencode")],
      },
    )
    const env = { ...setup.env, ...scenario.env }
    const started = performance.now()
    const serveArgs = ["serve", "--port", "0", "--hostname", "127.0.0.1", ...scenario.args]
    child = spawn(opencode, serveArgs, {
      cwd: sandbox.project,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
    })
    const stdout: string[] = []
    const url = await new Promise<string>((resolve, reject) => {
      let buffer = ""
      const timer = setTimeout(() => reject(new Error(`no "listening" line: ${buffer}`)), 60_000)
      child?.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        buffer += chunk
        const lines = buffer.split("\n")
        buffer = lines.pop() ?? ""
        for (const line of lines) {
          stdout.push(line)
          const match = /listening on (http:\/\/\S+)/.exec(line)
          if (match?.[1] !== undefined) {
            clearTimeout(timer)
            resolve(match[1])
          }
        }
      })
      child?.once("exit", (code) => reject(new Error(`opencode serve exited (${code}): ${stdout.join("\n")}`)))
    })
    const listeningMs = performance.now() - started
    const auth =
      scenario.env.OPENCODE_SERVER_PASSWORD === undefined
        ? {}
        : { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString("base64")}` }
    const withDirectory = (path: string, directory: boolean) =>
      directory
        ? `${url}${path}${path.includes("?") ? "&" : "?"}directory=${encodeURIComponent(sandbox.project)}`
        : `${url}${path}`
    const server: Server = {
      url,
      project: sandbox.project,
      get: async (path, headers, directory = true, authorised = true) => {
        const answer = await fetch(withDirectory(path, directory), {
          headers: { ...(authorised ? auth : {}), ...headers },
        })
        const text = await answer.text()
        return { status: answer.status, body: parse(text), headers: answer.headers }
      },
      post: async (path, body) => {
        const answer = await fetch(withDirectory(path, true), {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
        return { status: answer.status, body: parse(await answer.text()) }
      },
      mockRequests: () => mock.requests.map((request) => request.kind),
    }
    // The first request starts the project's instance (and its plugins): bounded, as a plugin can hang it.
    const firstAnswer = await fetch(withDirectory("/path", true), {
      headers: auth,
      signal: AbortSignal.timeout(firstAnswerBoundMs),
    }).then(
      async (answer) => ({ status: answer.status, body: await answer.text() }),
      () => undefined,
    )
    const firstAnswerMs = performance.now() - started
    const answers =
      firstAnswer === undefined
        ? { firstAnswer: `none within ${firstAnswerBoundMs} ms` }
        : { firstAnswer: firstAnswer.status, ...(await scenario.probe(server)) }
    const servedUrl = await readFile(join(sandbox.project, "served-url.txt"), "utf8").catch(() => undefined)
    if (servedUrl !== undefined) Object.assign(answers, { pluginServerUrl: servedUrl })
    process.stdout.write(
      `${scenario.name}: listening after ${Math.round(listeningMs)} ms, first answer after ${Math.round(firstAnswerMs)} ms${firstAnswer === undefined ? " (none: bound reached)" : ""}\n`,
    )
    const port = new URL(url).port
    let text = JSON.stringify({
      name: scenario.name,
      args: serveArgs,
      env: Object.keys(scenario.env),
      config: scenario.config,
      stdout,
      answers,
    })
    text = text.split(url).join("http://127.0.0.1:<port>").split(`:${port}`).join(":<port>")
    text = text.split(sandbox.project).join("<directory>").split(sandbox.home).join("<home>")
    text = text.split(sandbox.root).join("<sandbox>")
    text = text.replace(/(ses|msg|prt)_[A-Za-z0-9]+/g, "$1_<id>")
    return JSON.parse(text)
  } finally {
    if (child?.pid !== undefined) endProcessTree(child.pid)
    await mock.close()
    await sandbox.dispose()
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
