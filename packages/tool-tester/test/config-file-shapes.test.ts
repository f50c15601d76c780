// opencode.json files opencode reads, and the ones it refuses, as the 1.18.34 binary does
// (`opencode debug config`): a byte order mark is read; plugin entries that are not strings or
// [string, object] pairs are "Configuration is invalid", which tool-tester reports as CONFIG_INVALID.
import path from "node:path"
import { describe, expect, test } from "vitest"
import { loadTools } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

async function loadFails(directory: string) {
  const { env, home } = isolatedEnvironment()
  return loadTools({ directory, env, home, engine: "node" }).then(
    () => undefined,
    (error: unknown) => error as { code?: string; message?: string },
  )
}

describe("opencode.json shapes", () => {
  test("a file that starts with a UTF-8 byte order mark is read", async () => {
    const directory = tmpProject({
      "opencode.json": `\uFEFF{ "tool_output": { "max_lines": 7 } }`,
      ".opencode/tools/plain.ts": toolSource("plain"),
    })
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({ directory, env, home, engine: "node" })
    expect(project.config.tool_output).toEqual({ max_lines: 7 })
    expect(project.tools.map((tool) => tool.id)).toEqual(["plain"])
  })

  test('"plugin": [123, null] is CONFIG_INVALID naming each bad entry', async () => {
    const directory = tmpProject({ "opencode.json": `{ "plugin": [123, null, "fine-plugin"] }` })
    const error = await loadFails(directory)
    expect(error?.code).toBe("CONFIG_INVALID")
    expect(error?.message).toContain("opencode.json")
    expect(error?.message).toContain("plugin.0 is 123")
    expect(error?.message).toContain("plugin.1 is null")
    expect(error?.message).not.toContain("plugin.2")
  })

  test("its data is the key and the problems, from a file or from the config option alike", async () => {
    const problems = [
      "plugin.0 is 123, not a string or a [string, object] pair",
      "plugin.1 is null, not a string or a [string, object] pair",
    ]
    const directory = tmpProject({ "opencode.json": `{ "plugin": [123, null] }` })
    expect(await loadFails(directory)).toMatchObject({
      data: { file: path.join(directory, "opencode.json"), key: "plugin", problems },
    })
    const { env, home } = isolatedEnvironment()
    const given = loadTools({
      directory: tmpProject({}),
      env,
      home,
      engine: "node",
      config: { plugin: [123, null] as never },
    })
    await expect(given).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      data: { file: "(config option)", key: "plugin", problems },
    })
    await expect(given.catch((error: { data: object }) => error.data)).resolves.not.toHaveProperty("value")
  })

  test.each([
    ['"plugin": "one-plugin"', 'plugin is "one-plugin", not a list'],
    ['"plugin": [["a-plugin"]]', "plugin.0.1 is missing"],
    ['"plugin": [[5, {}]]', "plugin.0.0 is 5"],
    ['"plugin": [["a-plugin", {}, 3]]', "plugin.0 has 3 items"],
  ])("%s is CONFIG_INVALID (%s)", async (entry, said) => {
    const directory = tmpProject({ "opencode.json": `{ ${entry} }` })
    const error = await loadFails(directory)
    expect(error?.code).toBe("CONFIG_INVALID")
    expect(error?.message).toContain(said)
  })
})
