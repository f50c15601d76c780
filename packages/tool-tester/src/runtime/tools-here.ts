// Tools that run in this process (the node engine inside `tool-tester dev`): the processes they
// start are this process's children, not an engine's. They get what an engine's get
// (spawn-engine.ts): a mark in the environment they inherit, ended with this process however it
// ends (reaper.ts); on Windows, where marks cannot be read, every process below this one.
import { randomBytes } from "node:crypto"
import { ENGINE_MARK, ownStart } from "./process-tree.ts"
import type { Guard } from "./reaper.ts"
import { guard } from "./reaper.ts"

/** Marks what tools started from here will start (`env` is this process's environment) and guards it. */
export function guardToolsHere(env: Record<string, string | undefined>): Guard {
  const mark = `${process.pid}-here-${randomBytes(6).toString("hex")}`
  env[ENGINE_MARK] = mark
  return guard(process.platform === "win32" ? { childrenOf: process.pid, childrenOfStarted: ownStart() } : { mark })
}

/** `env` without the mark: for a process that must outlive the tools (a browser the CLI opens). */
export function withoutToolsMark(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const { [ENGINE_MARK]: _mark, ...rest } = env
  return rest
}
