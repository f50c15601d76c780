import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { E2EResult } from "../../src/e2e/e2e-result.ts"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { leftoverFolders, leftoverProcesses, makeTempParent } from "./leftovers.ts"

const project = fileURLToPath(new URL("../fixtures/e2e-round-trip", import.meta.url))
const tempParent = makeTempParent()
let result: E2EResult

// One real opencode run (several seconds) serves every test of this file.
beforeAll(async () => {
  result = await runE2E({
    directory: project,
    plugins: ["./extra-plugin.ts"],
    tempDirectory: tempParent.path,
    // Generous: CI runs other test files beside this one on two cores.
    timeoutMs: 180_000,
    script: {
      // Starting with a dash: opencode read such a prompt as its own option (--help printed its help).
      prompt: "--help: exercise the echo tool",
      turns: [
        { calls: [{ tool: "echo", args: { message: "hi" } }] },
        {
          calls: [
            { tool: "ECHO", args: { message: "loud" } },
            { tool: "echo", rawArgs: "{not json" },
            { tool: "no_such_tool", args: {} },
          ],
        },
        { calls: [{ tool: "many_lines", args: { count: 2500 } }, { tool: "plugin_hello" }] },
        { text: "all done" },
      ],
    },
  })
}, 240_000)

afterAll(() => tempParent.remove())

describe("runE2E with the real opencode binary", () => {
  it("gives opencode the script's prompt as the user's message, even one that starts with a dash", () => {
    const main = result.requests.find((request) => request.kind === "main")
    expect(JSON.stringify(main?.body)).toContain("--help: exercise the echo tool")
  })

  it("reports the tools array opencode sent, custom tools sorted among the built-ins", () => {
    const names = (result.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)
    expect(names).toContain("echo")
    expect(names).toContain("bash")
    expect(names.slice(0, 3)).toEqual(["bash", "echo", "edit"])
    expect(names).not.toContain("invalid")
    expect(result.exitCode).toBe(0)
  })

  it("runs a tool call and reports the result text, title and metadata", () => {
    const call = result.calls[0]
    expect(call?.as_called).toEqual({ name: "echo", arguments: '{"message":"hi"}' })
    expect(call?.as_run).toEqual(call?.as_called)
    expect(call?.result).toBe("echo: hi (call call_1)")
    expect(call?.status).toBe("completed")
    expect(call?.title).toBe("echo hi")
    expect(call?.metadata).toEqual({ length: 2, truncated: false })
  })

  it("repairs a wrong-case tool name to the lowercase tool", () => {
    const call = result.calls.find((entry) => entry.as_called.name === "ECHO")
    expect(call?.as_run?.name).toBe("echo")
    expect(call?.result).toBe("echo: loud (call call_2)")
  })

  it("reroutes unparsable arguments to the invalid tool", () => {
    const call = result.calls.find((entry) => entry.as_called.arguments === "{not json")
    expect(call?.as_run?.name).toBe("invalid")
    expect(call?.title).toBe("Invalid Tool")
    expect(call?.result).toMatch(
      /^The arguments provided to the tool are invalid: Invalid input for tool echo: JSON parsing failed: Text: \{not json\./,
    )
  })

  it("reroutes a call to an unknown tool to invalid, listing the available tools", () => {
    const call = result.calls.find((entry) => entry.as_called.name === "no_such_tool")
    expect(call?.as_run?.name).toBe("invalid")
    expect(JSON.parse(call?.as_run?.arguments ?? "{}").tool).toBe("no_such_tool")
    expect(call?.result).toContain("Model tried to call unavailable tool 'no_such_tool'. Available tools: bash, echo,")
    expect(call?.result).toContain(", invalid, many_lines, plugin_hello, read,")
  })

  it("reports the truncated result and the full output file opencode wrote", () => {
    const call = result.calls.find((entry) => entry.as_called.name === "many_lines")
    expect(call?.result).toContain("\n\n...500 lines truncated...\n\n")
    expect(call?.metadata?.truncated).toBe(true)
    expect(result.toolOutputFiles).toHaveLength(1)
    const file = result.toolOutputFiles[0]
    expect(file?.name).toMatch(/^tool_/)
    expect(file?.content?.split("\n")).toHaveLength(2500)
    expect(call?.metadata?.outputPath).toBe(`${result.sandbox.data}/opencode/tool-output/${file?.name}`)
  })

  it("loads the plugins it is given by path", () => {
    const call = result.calls.find((entry) => entry.as_called.name === "plugin_hello")
    expect(call?.result).toBe("hello from a plugin")
  })

  it("records every request: one title request, one per turn and a last one after the script", () => {
    const kinds = result.requests.map((request) => request.kind)
    expect(kinds.filter((kind) => kind === "title")).toHaveLength(1)
    expect(kinds.filter((kind) => kind === "main")).toHaveLength(4)
    expect(result.errors).toEqual([])
  })

  it("leaves no process and no temp folder behind", () => {
    expect(leftoverFolders(tempParent.path)).toEqual([])
    expect(leftoverProcesses(tempParent.path)).toEqual([])
  })
})
