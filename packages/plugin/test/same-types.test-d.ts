import type * as Real from "real-opencode-plugin"
import { tool as realTool } from "real-opencode-plugin"
import { describe, expectTypeOf, test } from "vitest"
import type * as Ours from "../src/index.ts"
import { tool } from "../src/index.ts"

// Every export of ours is the very type of the real package's of the same name (api-surface.test.ts
// checks the names), so a tool or plugin type-checks the same against either.
describe("the types, against the real @opencode-ai/plugin@1.18.33", () => {
  test("tool() and tool.schema", () => {
    expectTypeOf(tool).toEqualTypeOf(realTool)
    expectTypeOf(tool.schema).toEqualTypeOf(realTool.schema)
  })

  test("the tool types", () => {
    expectTypeOf<Ours.ToolContext>().toEqualTypeOf<Real.ToolContext>()
    expectTypeOf<Ours.ToolResult>().toEqualTypeOf<Real.ToolResult>()
    expectTypeOf<Ours.ToolAttachment>().toEqualTypeOf<Real.ToolAttachment>()
    expectTypeOf<Ours.ToolDefinition>().toEqualTypeOf<Real.ToolDefinition>()
  })

  test("the plugin types", () => {
    expectTypeOf<Ours.Plugin>().toEqualTypeOf<Real.Plugin>()
    expectTypeOf<Ours.PluginInput>().toEqualTypeOf<Real.PluginInput>()
    expectTypeOf<Ours.PluginOptions>().toEqualTypeOf<Real.PluginOptions>()
    expectTypeOf<Ours.PluginModule>().toEqualTypeOf<Real.PluginModule>()
    expectTypeOf<Ours.Config>().toEqualTypeOf<Real.Config>()
    expectTypeOf<Ours.Hooks>().toEqualTypeOf<Real.Hooks>()
    expectTypeOf<Ours.AuthHook>().toEqualTypeOf<Real.AuthHook>()
    expectTypeOf<Ours.AuthOAuthResult>().toEqualTypeOf<Real.AuthOAuthResult>()
    expectTypeOf<Ours.AuthOuathResult>().toEqualTypeOf<Real.AuthOuathResult>()
    expectTypeOf<Ours.ProviderContext>().toEqualTypeOf<Real.ProviderContext>()
    expectTypeOf<Ours.ProviderHook>().toEqualTypeOf<Real.ProviderHook>()
    expectTypeOf<Ours.ProviderHookContext>().toEqualTypeOf<Real.ProviderHookContext>()
    expectTypeOf<Ours.WorkspaceAdapter>().toEqualTypeOf<Real.WorkspaceAdapter>()
    expectTypeOf<Ours.WorkspaceInfo>().toEqualTypeOf<Real.WorkspaceInfo>()
    expectTypeOf<Ours.WorkspaceTarget>().toEqualTypeOf<Real.WorkspaceTarget>()
  })
})
