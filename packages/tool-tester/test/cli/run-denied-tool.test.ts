// A tool of the project that a permission rule denies is left out of opencode's list, so a call
// to it is rerouted to `invalid`, as opencode does. The report says that the rule is why: the
// invalid tool's text alone ("unavailable tool 'greet'") reads as if the file were not found.
import path from "node:path"
import { expect, test } from "vitest"
import { runCli } from "../helpers.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

test.each(["config", "--deny"])(
  "run of a tool a permission rule denies (%s) says the rule is why it was rerouted",
  {
    timeout: 60_000,
  },
  async (how) => {
    const directory = tmpProject({
      ".opencode/tools/greet.ts": toolSource("greet"),
      ...(how === "config" ? { "opencode.json": JSON.stringify({ permission: { greet: "deny" } }) } : {}),
    })
    const deny = how === "config" ? [] : ["--deny", "greet"]
    const file = path.join(directory, ".opencode", "tools", "greet.ts")
    const human = await runCli(["run", "greet", "--no-global", ...deny], { cwd: directory })
    expect(human.exitCode).toBe(6)
    expect(human.stderr).toContain(
      `the call to greet was rerouted to the invalid tool: greet (${file}) is denied by a permission rule (opencode.json's "permission", the agent's, or --deny), so opencode leaves it out of the tool list: Model tried to call unavailable tool 'greet'.`,
    )
    expect(human.stdout).toContain(
      "greet is a tool of this project, denied by a permission rule: opencode does not offer it",
    )
    expect(human.stdout).not.toContain("did you mean")
    const json = await runCli(["run", "greet", "--no-global", "--json", ...deny], { cwd: directory })
    expect(JSON.parse(json.stdout)).toMatchObject({ rerouted: true, suggestion: null, denied: { tool: "greet", file } })
  },
)

// opencode's per-model filter works on the id, custom tools included (docs/opencode-contract.md):
// a custom websearch is offered only with the provider opencode. Before, run said a permission
// rule denied it, and the user looked for a rule that is not there.
test("run of a tool the per-model filter hides says the model is why, not a permission rule", {
  timeout: 60_000,
}, async () => {
  const directory = tmpProject({ ".opencode/tools/websearch.ts": toolSource("websearch") })
  const file = path.join(directory, ".opencode", "tools", "websearch.ts")
  const human = await runCli(["run", "websearch", "--no-global"], { cwd: directory })
  expect(human.exitCode).toBe(6)
  expect(human.stderr).toContain(
    `the call to websearch was rerouted to the invalid tool: websearch (${file}) is not offered to this model: like the built-in websearch, offered only with the provider opencode (opencode's own models) (pass --model for a model it is offered to): Model tried to call unavailable tool 'websearch'.`,
  )
  expect(human.stdout).toContain("websearch is a tool of this project that opencode does not offer to this model")
  expect(human.stdout).not.toContain("permission rule")
  const json = await runCli(["run", "websearch", "--no-global", "--json"], { cwd: directory })
  const result = JSON.parse(json.stdout)
  expect(result).toMatchObject({ rerouted: true, suggestion: null, hidden: { tool: "websearch", file } })
  expect(result.denied).toBeUndefined()
})
