// The `@opencode-ai/tool-tester/e2e` entry: the real-opencode runner. Apart from the main entry so
// that a test calling runTool loads none of it.
// Any new export added here becomes public API.

export type { E2ECall, E2EError, E2EResult, E2EToolCall, E2EToolOutputFile } from "./e2e-result.ts"
export type { CapturedRequest } from "./mock-model.ts"
export { resolveOpencode, testedOpencodeVersion } from "../opencode/opencode-binary.ts"
export type { E2EOptions } from "./run-e2e.ts"
export { runE2E } from "./run-e2e.ts"
export type { Script, ScriptCall, ScriptTurn } from "./script.ts"
export { parseScript, parseScriptText } from "./script.ts"
export { findOpencode } from "./skip.ts"
export type { TranscriptOptions } from "./transcript.ts"
export { formatTranscript } from "./transcript.ts"
