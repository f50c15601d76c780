// input.$ (Bun's shell) and input.serverUrl, at plugin init and inside a tool's execute
// (docs/opencode-contract.md#plugin-input). The environment is reported as the names the shell
// sees beyond the plugin's own process.env and the values of the OPENCODE* variables; paths come
// back as the placeholders of the golden file, OPENCODE_PID as `process.pid` when it is the
// plugin's own process and OPENCODE_CONFIG_CONTENT (the runner's config, with a random port) as
// `<runner config>`.
type Shell = (strings: TemplateStringsArray, ...values: unknown[]) => { text(): Promise<string> }
type Input = { $: Shell; serverUrl: unknown; directory: string }
// Also: the input's keys in order, and whether serverUrl is a getter.

async function environment($: Shell): Promise<string> {
  const lines = (await $`env`.text()).split("\n").filter((line) => line.includes("="))
  const seen = new Map(lines.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]))
  const added = [...seen.keys()].filter((name) => !(name in process.env)).sort()
  const missing = Object.keys(process.env)
    .filter((name) => !seen.has(name))
    .sort()
  const differing = [...seen.keys()]
    .filter((name) => name in process.env && process.env[name] !== seen.get(name))
    .sort()
  const opencode = [...seen.keys()]
    .filter((name) => name.startsWith("OPENCODE"))
    .sort()
    .map((name) => `${name}=${opencodeValue(name, seen.get(name))}`)
  return JSON.stringify({ added, missing, differing, opencode, PWD: seen.get("PWD") ?? null })
}

function opencodeValue(name: string, value: string | undefined): string | undefined {
  if (name === "OPENCODE_PID" && value === String(process.pid)) return "process.pid"
  if (name === "OPENCODE_CONFIG_CONTENT") return "<runner config>"
  return value
}

/** Whether anything answers at serverUrl (a plain GET of its /path route). */
async function reach(serverUrl: unknown): Promise<string> {
  try {
    const answer = await fetch(new URL("path", String(serverUrl)))
    return `HTTP ${answer.status}`
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`
  }
}

export const ShellProbe = async (input: Input) => {
  const $ = input.$
  const descriptor = Object.getOwnPropertyDescriptor(input, "serverUrl")
  const init = {
    inputKeys: Object.keys(input).join(","),
    serverUrlIs: descriptor === undefined ? "absent" : descriptor.get === undefined ? "a value" : "a getter",
    echo: await $`echo shell-ok`.text(),
    pwd: await $`pwd`.text(),
    cwd: process.cwd(),
    serverUrl: String(input.serverUrl),
    serverUrlType: Object.prototype.toString.call(input.serverUrl),
    env: await environment($),
  }
  return {
    tool: {
      shell_init: {
        description: "What input.$ and input.serverUrl gave during plugin init",
        args: {},
        execute: async () => JSON.stringify(init),
      },
      shell_execute: {
        description: "What input.$ and input.serverUrl give inside execute, and whether serverUrl answers",
        args: {},
        execute: async () =>
          JSON.stringify({
            echo: await $`echo shell-ok`.text(),
            pwd: await $`pwd`.text(),
            cwd: process.cwd(),
            serverUrl: String(input.serverUrl),
            serverUrlFetch: await reach(input.serverUrl),
            env: await environment($),
          }),
      },
    },
  }
}
