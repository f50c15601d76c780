// The `@opencode-ai/tool-tester/lint` entry: the provider lint. Apart from the main entry so that a
// test calling runTool loads none of it. Any new export added here becomes public API.

export type { LintFinding } from "./lint.ts"
export { lintProject, lintSchemas } from "./lint.ts"
export type { LintProvider } from "./providers.ts"
export { LINT_PROVIDER_NAMES } from "./providers.ts"
