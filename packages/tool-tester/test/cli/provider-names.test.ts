import { describe, expect, test } from "vitest"
import { ToolTesterError } from "../../src/errors.ts"
import { lintProviderNamed, unknownProviderMessage } from "../../src/lint/providers.ts"
import { modelSelection } from "../../src/pipeline/model-selection.ts"
import { PROVIDER_NAMES, PROVIDER_PACKAGES, providerPackage } from "../../src/pipeline/provider-names.ts"
import { fixture, jsonError, runCli } from "../helpers.ts"

const basic = fixture("cli-basic")

describe("--provider names", () => {
  test("short names map to their npm packages", () => {
    expect(providerPackage("openai")).toBe("@ai-sdk/openai")
    expect(providerPackage("anthropic")).toBe("@ai-sdk/anthropic")
    expect(providerPackage("google")).toBe("@ai-sdk/google")
    expect(providerPackage("google-vertex")).toBe("@ai-sdk/google-vertex")
    expect(providerPackage("openai-compatible")).toBe("@ai-sdk/openai-compatible")
    expect(providerPackage("azure")).toBe("@ai-sdk/azure")
    expect(providerPackage("amazon-bedrock")).toBe("@ai-sdk/amazon-bedrock")
    expect(providerPackage("mistral")).toBe("@ai-sdk/mistral")
    expect(providerPackage("groq")).toBe("@ai-sdk/groq")
    expect(providerPackage("xai")).toBe("@ai-sdk/xai")
    expect(providerPackage("moonshotai")).toBe("@ai-sdk/moonshotai")
    expect(providerPackage("openrouter")).toBe("@openrouter/ai-sdk-provider")
    expect(providerPackage("OpenAI")).toBe("@ai-sdk/openai")
    expect(providerPackage("github-copilot")).toBe("@ai-sdk/github-copilot")
    expect(providerPackage("alibaba")).toBe("@ai-sdk/alibaba")
    expect(providerPackage("cohere")).toBe("@ai-sdk/cohere")
    expect(providerPackage("venice")).toBe("venice-ai-sdk-provider")
    expect(providerPackage("google-vertex-anthropic")).toBe("@ai-sdk/google-vertex/anthropic")
  })

  test("each short name's provider id is the one opencode's catalogue gives it", () => {
    expect(modelSelection({ provider: "github-copilot", model: "gpt-4.1" })).toEqual({
      npm: "@ai-sdk/github-copilot",
      providerID: "github-copilot",
      modelID: "gpt-4.1",
    })
    // Claude on Vertex AI is a provider of its own, checked by Anthropic's rules.
    expect(modelSelection({ provider: "google-vertex-anthropic" }).providerID).toBe("google-vertex-anthropic")
    expect(modelSelection({ provider: "@ai-sdk/google-vertex/anthropic" }).providerID).toBe("google-vertex-anthropic")
    expect(lintProviderNamed("google-vertex-anthropic")).toBe("anthropic")
    expect(lintProviderNamed("github-copilot")).toBe("openai-compatible")
    expect(lintProviderNamed("alibaba")).toBe("openai-compatible")
    expect(modelSelection({ provider: "cohere" }).providerID).toBe("cohere")
    expect(modelSelection({ provider: "venice" }).providerID).toBe("venice")
  })

  test("one list for the CLI and the matchers: the lint's names and common ones are aliases", () => {
    expect(providerPackage("gemini")).toBe("@ai-sdk/google")
    expect(providerPackage("moonshot")).toBe("@ai-sdk/moonshotai")
    expect(providerPackage("bedrock")).toBe("@ai-sdk/amazon-bedrock")
    expect(catchError(() => providerPackage("gemni")).message).toContain("did you mean gemini?")
    // The matchers and doctor take every one of those names, and the lint's own.
    expect(lintProviderNamed("gemini")).toBe("google")
    expect(lintProviderNamed("google-vertex")).toBe("google")
    expect(lintProviderNamed("amazon-bedrock")).toBe("bedrock")
    expect(lintProviderNamed("moonshotai")).toBe("moonshot")
    expect(lintProviderNamed("azure")).toBe("openai")
    expect(lintProviderNamed("groq")).toBe("openai-compatible")
    expect(lintProviderNamed("gemini-gateway")).toBe("gemini-gateway")
    expect(lintProviderNamed("gemni")).toBeUndefined()
    expect(unknownProviderMessage("gemni")).toMatch(
      /^unknown provider "gemni": did you mean gemini\? use one of openai, /,
    )
    for (const name of PROVIDER_NAMES) expect(lintProviderNamed(name), name).toBeDefined()
    expect(modelSelection({ provider: "gemini-gateway" })).toEqual({
      npm: "@openrouter/ai-sdk-provider",
      providerID: "openrouter",
      modelID: "google/gemini-2.5-pro",
    })
  })

  test("npm package names pass through unchanged", () => {
    for (const name of [
      "@ai-sdk/openai",
      "@ai-sdk/amazon-bedrock/mantle",
      "@openrouter/ai-sdk-provider",
      "ollama-ai-provider",
      ...Object.values(PROVIDER_PACKAGES),
    ])
      expect(providerPackage(name)).toBe(name)
  })

  test("an unknown name is a usage error with the closest name and the accepted ones", () => {
    const error = catchError(() => providerPackage("antropic"))
    expect(error.code).toBe("USAGE")
    expect(error.message).toContain("did you mean anthropic?")
    expect(error.message).toContain(Object.keys(PROVIDER_PACKAGES).join(", "))
    expect(catchError(() => providerPackage("foo")).message).not.toContain("did you mean")
  })
})

describe("--provider on the command line", { timeout: 60_000 }, () => {
  test("schema --provider openai gives exactly what --provider @ai-sdk/openai gives, not the neutral schema", async () => {
    const args = ["schema", "--dir", basic, "--no-global", "--engine", "node", "--json"]
    const [short, full, neutral] = await Promise.all([
      runCli([...args, "--provider", "openai"]),
      runCli([...args, "--provider", "@ai-sdk/openai"]),
      runCli(args),
    ])
    expect(short.exitCode, short.stderr).toBe(0)
    expect(full.exitCode).toBe(0)
    expect(short.stdout).toBe(full.stdout)
    expect(short.stdout).not.toBe(neutral.stdout)
    const tools = (JSON.parse(short.stdout) as { tools: Array<{ strict?: boolean }> }).tools
    expect(tools.length).toBeGreaterThan(0)
    for (const tool of tools) expect(tool.strict).toBe(false)
  })

  test("an unknown provider exits 1 (USAGE) with a suggestion, for every command that takes one", async () => {
    for (const command of ["list", "schema", "run greet"]) {
      const result = await runCli([
        ...command.split(" "),
        "--dir",
        basic,
        "--no-global",
        "--provider",
        "opnai",
        "--json",
      ])
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe("")
      expect(jsonError(result).code).toBe("USAGE")
      expect(jsonError(result).message).toContain("did you mean openai?")
    }
  })

  test("e2e refuses an unknown provider before looking for opencode", async () => {
    const result = await runCli([
      "e2e",
      "--dir",
      basic,
      "--script",
      "e2e-script.json",
      "--opencode",
      "/nonexistent/opencode",
      "--provider",
      "anthropc",
      "--json",
    ])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("did you mean anthropic?"),
    })
  })
})

// --- internal ---

function catchError(action: () => unknown): ToolTesterError {
  try {
    action()
  } catch (error) {
    if (ToolTesterError.isInstance(error)) return error
    throw error
  }
  throw new Error("expected a ToolTesterError")
}
