// Whether an eval without `--model` has a model to run, known before anything starts (no engine,
// no opencode): the `model` key of any opencode config layer tool-tester reads (the global and
// project opencode.json files, `OPENCODE_CONFIG`, `OPENCODE_CONFIG_CONTENT`). When a plugin could
// set it (a `config` hook) or a layer cannot be read here, the answer is "maybe", and the runner
// asks opencode as before (EVAL_NO_MODEL then comes from models.ts).

import { existsSync } from "node:fs"
import path from "node:path"
import { loadOpencodeConfig, readConfigFile } from "../config/opencode-config.ts"
import { configDirectories } from "../discovery/config-dirs.ts"
import { findWorktree } from "../discovery/worktree.ts"

/** The EVAL_NO_MODEL problem when no config layer names a model and nothing else could, else undefined. */
export function noModelProblem(
  directory: string,
  env: Record<string, string | undefined> = process.env,
): { code: "EVAL_NO_MODEL"; message: string } | undefined {
  const worktree = findWorktree(directory)
  const directories = configDirectories({ directory, worktree, env })
  const loaded = loadOpencodeConfig({ directory, worktree, directories })
  if (!loaded.success) return undefined
  const layers: Array<Record<string, unknown>> = [loaded.value.config]
  const file = env["OPENCODE_CONFIG"]
  if (file) {
    const read = readConfigFile(path.resolve(file))
    if (!read.success) return undefined
    layers.push(read.value)
  }
  if (env["OPENCODE_CONFIG_CONTENT"]) {
    try {
      const content: unknown = JSON.parse(env["OPENCODE_CONFIG_CONTENT"])
      if (typeof content === "object" && content !== null) layers.push(content as Record<string, unknown>)
    } catch {
      return undefined
    }
  }
  if (layers.some((layer) => layer["model"] !== undefined)) return undefined
  // A plugin's `config` hook may set the model: only opencode can tell.
  const plugins = layers.some((layer) => Array.isArray(layer["plugin"]) && layer["plugin"].length > 0)
  const pluginFolders = directories.some((entry) =>
    ["plugin", "plugins"].some((name) => existsSync(path.join(entry.path, name))),
  )
  if (plugins || pluginFolders) return undefined
  return {
    code: "EVAL_NO_MODEL",
    message:
      'No model is configured for this project (opencode.json "model"): name one with --model provider/model, or set "model" in opencode.json.',
  }
}
