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
