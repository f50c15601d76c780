// The `@opencode-ai/tool-tester/fuzz` entry: fuzzTool and its types. Apart from the main entry so
// that a test calling runTool loads none of it (nor fast-check, which it needs and which is installed
// apart: an optional peer dependency). Any new export added here becomes public API.

export type { Failure, FailureKind } from "./classify.ts"
export type { FuzzFailure, FuzzOptions, FuzzReport } from "./fuzz-tool.ts"
export { fuzzTool } from "./fuzz-tool.ts"
