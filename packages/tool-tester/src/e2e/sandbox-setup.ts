// A sandbox made ready for the opencode binary and the mock model: its config layers written, the
// plugin package put where opencode would install it, and the environment opencode runs with.
// Shared by e2e, the conformance observers and the benches, so they all drive opencode alike.
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { buildOpencodeConfig, type OpencodeConfigLayers, type OpencodeConfigOptions } from "./opencode-config.ts"
import { preparePluginInstall } from "../opencode/plugin-package.ts"
import type { Sandbox } from "../opencode/sandbox.ts"

export type SandboxSetup = { layers: OpencodeConfigLayers; env: Record<string, string> }

/**
 * Writes the global layer of `config` to the sandbox's global config folder, makes opencode skip
 * its own install of `pluginPackage` in each of `configDirectories` (undone with the sandbox), and
 * returns the layers with the environment that carries the content layer.
 */
export async function configureSandbox(
  sandbox: Sandbox,
  config: OpencodeConfigOptions,
  plugin: { pluginPackage: string; configDirectories: readonly string[] },
): Promise<SandboxSetup> {
  const layers = buildOpencodeConfig(config)
  await writeFile(join(sandbox.globalConfigDirectory, "opencode.json"), `${JSON.stringify(layers.global, null, 2)}\n`)
  for (const directory of plugin.configDirectories) {
    await preparePluginInstall(directory, plugin.pluginPackage, sandbox.onDispose)
  }
  return { layers, env: opencodeEnvironment(sandbox, JSON.stringify(layers.content)) }
}

/** The environment of opencode: a throw-away home, no update checks or downloads, our config. */
export function opencodeEnvironment(sandbox: Sandbox, configContent: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    // The user's own opencode settings (config dirs, permissions, ...) must not leak into the run,
    // nor BUN_BE_BUN (set when tool-tester itself runs under `BUN_BE_BUN=1 opencode run ...`), which
    // would make the binary act as Bun instead of opencode.
    if (value !== undefined && !key.startsWith("OPENCODE_") && key !== "BUN_BE_BUN") env[key] = value
  }
  return {
    ...env,
    HOME: sandbox.home,
    USERPROFILE: sandbox.home,
    XDG_CONFIG_HOME: sandbox.configHome,
    XDG_DATA_HOME: sandbox.dataHome,
    XDG_CACHE_HOME: sandbox.cacheHome,
    XDG_STATE_HOME: sandbox.stateHome,
    TMPDIR: sandbox.tmp,
    TEMP: sandbox.tmp,
    TMP: sandbox.tmp,
    // opencode takes the project folder from PWD, not from its working directory
    // (docs/opencode-contract.md#driving-the-binary).
    PWD: sandbox.project,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_CONFIG_CONTENT: configContent,
  }
}
