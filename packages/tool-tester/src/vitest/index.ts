// `@opencode-ai/tool-tester/vitest`: importing it adds the matchers to vitest's expect.
//   import "@opencode-ai/tool-tester/vitest"            (in a test file or a setupFiles entry)
//   import { toolTester } from "@opencode-ai/tool-tester/vitest"   (plugin for vitest.config.ts)
import { expect } from "vitest"
import type { ProviderName } from "../lint/providers.ts"
import { type LoadInOpencodeOptions, toolTesterMatchers } from "./matchers.ts"

expect.extend(toolTesterMatchers)

declare module "vitest" {
  interface Matchers<T = any> {
    /** Snapshots what the model reads from this call (tool, status, output; paths normalised). */
    toMatchModelView(hint?: string): T
    /** The same, kept in the test file itself (written there by vitest -u, or by create-tool). */
    toMatchInlineModelView(inlineSnapshot?: string): T
    /** Snapshots the tools' schemas as each provider receives them from opencode. Await it. */
    toMatchProviderSchemas(providers: readonly ProviderName[], hint?: string): Promise<T>
    /**
     * Passes when `tool-tester doctor` finds no error: the tools load and opencode offers them. Await it.
     * `timeoutMs` bounds each of doctor's calls (default 5000); `signal` (the test context's) stops them.
     */
    toLoadInOpencode(options?: LoadInOpencodeOptions): Promise<T>
    /** Passes when the provider rejects none of the tools (docs/provider-lint.md). Await it. */
    toBeAcceptedBy(provider: ProviderName): Promise<T>
  }
}

export type { LintProvider, ProviderName } from "../lint/providers.ts"
export { type ClientAnswers, type MockClient, mockClient } from "./mock-client.ts"
export { modelView } from "./model-view.ts"
export { type ToolTesterPluginOptions, toolTester } from "./watch-plugin.ts"
export { type EvalSuiteOptions, evalSuite } from "./eval-suite.ts"
