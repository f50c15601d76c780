// A plugin named by some scenarios of observe-serve.ts (through the config's `plugin` list, so the
// other scenarios do not load it): it writes String(input.serverUrl) as opencode serve passes it
// to `served-url.txt` in the project, then, with the option `awaitAgents`, awaits
// client.app.agents() as a plugin that hangs `opencode run` does.
import { writeFileSync } from "node:fs"
import { join } from "node:path"

type Input = { serverUrl: unknown; directory: string; client: { app: { agents(): Promise<unknown> } } }

export const InitProbe = async (input: Input, options?: { awaitAgents?: boolean }) => {
  writeFileSync(join(input.directory, "served-url.txt"), String(input.serverUrl))
  if (options?.awaitAgents === true) await input.client.app.agents()
  return {}
}
