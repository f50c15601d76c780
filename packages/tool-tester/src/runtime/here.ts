// The engine this code runs in. Inside the bun engine's process (or when a user runs tool-tester
// in Bun) tool files are imported natively; in Node they go through tool-tester's loader.
import type { EngineInfo } from "../engine-client/choose-engine.ts"

/** True when this process is Bun (the opencode executable run with BUN_BE_BUN=1 is one). */
export const inBun: boolean = typeof process.versions.bun === "string"

/** The engine of this process, as reports name it. */
export function engineHere(): EngineInfo {
  return inBun
    ? { name: "bun", version: process.versions.bun as string, binary: process.execPath }
    : { name: "node", version: process.versions.node, binary: process.execPath }
}
