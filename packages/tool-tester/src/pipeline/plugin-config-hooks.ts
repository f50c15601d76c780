import { thrownText } from "./normalize-result.ts"
import type { Diagnostic, ToolProject } from "../types.ts"

/**
 * Calls each plugin's `config` hook with the project's merged config, in plugin order, once the
 * plugins are loaded, as opencode does: what a hook changes (`default_agent`, `agent`, permission
 * rules) holds for every call (docs/opencode-contract.md#agent).
 */
export async function runConfigHooks(project: ToolProject): Promise<Diagnostic[]> {
  const problems: Diagnostic[] = []
  for (const plugin of project.plugins) {
    const hook = plugin.hooks?.["config"]
    if (typeof hook !== "function") continue
    try {
      await hook(project.config)
    } catch (error) {
      problems.push({
        code: "PLUGIN_LOAD_FAILED",
        severity: "warning",
        file: plugin.file,
        message: `${plugin.file}: its config hook threw (${thrownText(error)}); opencode logs "plugin config hook failed" and goes on with the config as the hooks left it`,
      })
    }
  }
  return problems
}
