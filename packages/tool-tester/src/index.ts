// Any new export added here becomes public API.
// What a test calling runTool does not need has an entry of its own, so importing this one loads
// none of it (test/main-entry.test.ts): `@opencode-ai/tool-tester/e2e` (runE2E and the real-opencode
// runner), `/fuzz` (fuzzTool), `/lint` (the provider lint), `/vitest` (the matchers).

export type { EngineChoice, EngineInfo } from "./runtime/here.ts"
export type { Result, ToolTesterErrorCode } from "./errors.ts"
export { ToolTesterError } from "./errors.ts"
export type { ExternalDirectoryCheck, ExternalDirectoryRequest } from "./external-directory.ts"
export { checkExternalDirectory } from "./external-directory.ts"
export type { ArgsMatcher, EvalCase, EvalTurn, ExpectedCall, Expectation, ValueMatcher } from "./eval-cases/types.ts"
export type { ListedTool, ListOptions } from "./list-tools.ts"
export { getToolSchemas, listTools } from "./list-tools.ts"
export type { ClientStub, EscapedError } from "./types.ts"
export type { Diagnostic, LoadedPlugin, LoadedTool, LoadToolsOptions, ToolProject } from "./load-tools.ts"
export { loadTools } from "./load-tools.ts"
export type { ModelSelection } from "./pipeline/builtins.ts"
export { defaultDataDirectory, opencodeDataDirectory } from "./pipeline/data-directory.ts"
export type { HookError } from "./pipeline/part-events.ts"
export type { PermissionOverrides } from "./pipeline/permissions.ts"
export type { RawToolCall } from "./pipeline/repair-call.ts"
export type { AskRecord, MetadataRecord } from "./pipeline/tool-context.ts"
export type { ToolSchema } from "./pipeline/tool-schemas.ts"
export { truncateOutput } from "./pipeline/truncate.ts"
export { validateArgs } from "./pipeline/validate-args.ts"
export type { RunOptions, RunResult } from "./run-tool.ts"
export { callTool, closeProject, runTool } from "./run-tool.ts"
export { providerSchema } from "./schema/provider-schema.ts"
export { toolJsonSchema } from "./schema/tool-json-schema.ts"
