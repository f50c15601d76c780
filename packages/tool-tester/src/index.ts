// Any new export added here becomes public API.

export type {
  CapturedRequest,
  E2ECall,
  E2EError,
  E2EOptions,
  E2EResult,
  E2EToolCall,
  E2EToolOutputFile,
  Script,
  ScriptCall,
  ScriptTurn,
  TranscriptOptions,
} from "./e2e/index.ts"
export {
  findOpencode,
  formatTranscript,
  parseScript,
  parseScriptText,
  resolveOpencode,
  runE2E,
  testedOpencodeVersion,
} from "./e2e/index.ts"
export type { EngineChoice, EngineInfo } from "./engine/choose-engine.ts"
export type { Result, ToolTesterErrorCode } from "./errors.ts"
export { ToolTesterError } from "./errors.ts"
export type { ExternalDirectoryCheck, ExternalDirectoryRequest } from "./external-directory.ts"
export { checkExternalDirectory } from "./external-directory.ts"
export type { Failure, FailureKind } from "./fuzz/classify.ts"
export type { FuzzFailure, FuzzOptions, FuzzReport } from "./fuzz/fuzz-tool.ts"
export { fuzzTool } from "./fuzz/fuzz-tool.ts"
export type { LintFinding } from "./lint/lint.ts"
export { lintProject, lintSchemas } from "./lint/lint.ts"
export type { LintProvider } from "./lint/providers.ts"
export { LINT_PROVIDER_NAMES } from "./lint/providers.ts"
export type { ListedTool, ListOptions } from "./list-tools.ts"
export { getToolSchemas, listTools } from "./list-tools.ts"
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
