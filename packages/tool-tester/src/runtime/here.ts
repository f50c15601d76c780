// The engine this code runs in. Inside the bun engine's process (or when a user runs tool-tester
// in Bun) tool files are imported natively; in Node they go through tool-tester's loader.

/** The engines a user may ask for (`--engine`, the `engine` option, TOOL_TESTER_ENGINE); engine-client/choose-engine.ts decides. */
export const ENGINE_CHOICES = ["auto", "bun", "node"] as const
export type EngineChoice = (typeof ENGINE_CHOICES)[number]

/** Which engine loaded and ran the tools: every `--json` document and every project says it. */
export type EngineInfo = { name: "node" | "bun"; version: string; binary: string }

/** True when this process is Bun (the opencode executable run with BUN_BE_BUN=1 is one). */
export const inBun: boolean = typeof process.versions.bun === "string"

/** The engine of this process, as reports name it. */
export function engineHere(): EngineInfo {
  return inBun
    ? { name: "bun", version: process.versions.bun as string, binary: process.execPath }
    : { name: "node", version: process.versions.node, binary: process.execPath }
}
