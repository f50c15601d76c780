// What providers reject in a tool definition after opencode's own fixes for them
// (docs/opencode-contract.md#provider-rejections). Each rule names its source;
// docs/provider-lint.md lists them. A rule sees one tool as the provider receives it (name,
// description, parameters after opencode's fixes for that provider) and returns one line per
// problem. `warning` marks what is inferred or reported changed, not documented as an error.

import { isRecord } from "../_is-record.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import { danglingRefs, localRefs, resolvePointer } from "../schema/refs.ts"
import type { LintProvider } from "./providers.ts"
import { describePointer, walkSchema } from "./walk-schema.ts"

export type LintRule = {
  /** `<provider family>/<rule>`, stable: tests and docs use it. */
  id: string
  providers: LintProvider[]
  severity: "error" | "warning"
  /** Names and length of tool ids: doctor reports these as TOOL_NAME_REJECTED already. */
  kind: "name" | "schema" | "request"
  /** Where the rule comes from. */
  source: string
  check(tool: ToolSchema, request: { toolCount: number }): string[]
}

const OPENAI_STYLE: LintProvider[] = ["openai", "openai-compatible"]
const GEMINI: LintProvider[] = ["google", "gemini-gateway"]

export const LINT_RULES: LintRule[] = [
  nameRule(
    "openai/name",
    OPENAI_STYLE,
    /^[A-Za-z0-9_-]+$/,
    64,
    "letters, digits, _ and -",
    "openai/openai-openapi openapi.yaml, FunctionObject.name",
  ),
  nameRule(
    "anthropic/name",
    ["anthropic"],
    /^[A-Za-z0-9_-]+$/,
    128,
    "letters, digits, _ and -",
    "Anthropic API reference, tools[].name",
  ),
  nameRule(
    "gemini/name",
    GEMINI,
    /^[A-Za-z_][A-Za-z0-9_.:-]*$/,
    64,
    "a letter or _ first, then letters, digits, _ . : and -",
    "ai.google.dev FunctionDeclaration.name; google-gemini/gemini-cli #2966",
  ),
  nameRule(
    "moonshot/name",
    ["moonshot"],
    /^[A-Za-z][A-Za-z0-9_-]*$/,
    64,
    "a letter first, then letters, digits, _ and -",
    "MoonshotAI/kimi-cli #2531",
  ),
  nameRule(
    "mistral/name",
    ["mistral"],
    /^[A-Za-z0-9_-]+$/,
    64,
    "letters, digits, _ and -",
    "Mistral OpenAPI, Function.name",
  ),
  nameRule(
    "bedrock/name",
    ["bedrock"],
    /^[A-Za-z0-9_-]+$/,
    64,
    "letters, digits, _ and -",
    "AWS Bedrock API_runtime_ToolSpecification.name",
  ),
  {
    id: "openai/tool-count",
    providers: OPENAI_STYLE,
    severity: "error",
    kind: "request",
    source: "openai/openai-openapi openapi.yaml, CreateChatCompletionRequest.tools (a max of 128 functions)",
    check: (_tool, request) =>
      request.toolCount > 128 ? [`the request offers ${request.toolCount} tools, over the 128 OpenAI accepts`] : [],
  },
  {
    id: "openai/description-length",
    providers: OPENAI_STYLE,
    severity: "warning",
    kind: "schema",
    source: "getsentry/sentry-mcp #106 (string_above_max_length; reported lifted mid-2025)",
    check: (tool) =>
      tool.description.length > 1024
        ? [
            `its description has ${tool.description.length} characters; OpenAI rejected over 1024 (string_above_max_length)`,
          ]
        : [],
  },
  {
    id: "openai-compatible/object-and-array-shapes",
    providers: ["openai-compatible"],
    severity: "error",
    kind: "schema",
    source: "openai/openai-agents-python PR #454 (object schema missing properties, array schema missing items)",
    check: (tool) =>
      nodes(tool.parameters).flatMap(({ node, pointer }) => {
        if (node["type"] === "object" && !isRecord(node["properties"]) && node["additionalProperties"] === undefined)
          return [
            `${describePointer(pointer)} is an object with no properties (z.record or a bare object): OpenAI answers "object schema missing properties"`,
          ]
        if (node["type"] === "array" && node["items"] === undefined)
          return [
            `${describePointer(pointer)} is an array with no items (z.tuple gives prefixItems only): OpenAI answers "array schema missing items"`,
          ]
        return []
      }),
  },
  {
    id: "anthropic/root-object",
    providers: ["anthropic", "bedrock"],
    severity: "error",
    kind: "schema",
    source: "Anthropic API reference, input_schema; AWS Bedrock ToolInputSchema (kirodotdev/Kiro #11026)",
    check: (tool) => {
      const problems: string[] = []
      if (tool.parameters["type"] !== "object")
        problems.push(`its root schema has type ${JSON.stringify(tool.parameters["type"])}, not "object"`)
      const combiners = ["oneOf", "allOf", "anyOf"].filter((key) => key in tool.parameters)
      if (combiners.length > 0)
        problems.push(`its root schema uses ${combiners.join(", ")}, which input_schema does not allow at the root`)
      return problems
    },
  },
  {
    id: "anthropic/dangling-ref",
    providers: ["anthropic", "bedrock", "openai", "openai-compatible"],
    severity: "warning",
    kind: "schema",
    source:
      "anomalyco/opencode #2082; anthropics/claude-code #5319 (inferred: an unresolvable $ref makes the schema invalid)",
    check: (tool) => {
      const refs = danglingRefs(tool.parameters)
      return refs.length > 0
        ? [
            `its $refs point nowhere (${refs.join(", ")}): opencode renames $defs to definitions but not the refs, so a validating provider refuses the schema`,
          ]
        : []
    },
  },
  {
    id: "gemini/ref",
    providers: ["google"],
    severity: "error",
    kind: "schema",
    source: "anomalyco/opencode #12295; @ai-sdk/google inlines $refs and throws on recursive or dangling ones",
    check: (tool) => {
      const refs = localRefs(tool.parameters)
      if (refs.length === 0) return []
      const dangling = refs.filter((ref) => resolvePointer(tool.parameters, ref) === undefined)
      if (dangling.length > 0)
        return [
          `its $refs point nowhere (${dangling.join(", ")}): Gemini's SDK cannot inline them and fails the request`,
        ]
      return isRecursive(tool.parameters)
        ? [
            "its schema is recursive ($ref back into itself): Gemini has no $ref, and its SDK cannot inline a recursive one",
          ]
        : []
    },
  },
  {
    id: "gemini/empty-object",
    providers: GEMINI,
    severity: "error",
    kind: "schema",
    source: "MarkusPfundstein/mcp-obsidian #21 (properties: should be non-empty for OBJECT type)",
    check: (tool) =>
      nodes(tool.parameters)
        .filter(({ node, pointer }) => pointer !== "#" && node["type"] === "object" && !hasProperties(node))
        .map(
          ({ pointer }) =>
            `${describePointer(pointer)} is an object with no properties (z.object({}) or z.record): Gemini answers "properties: should be non-empty for OBJECT type"`,
        ),
  },
  {
    id: "gemini/non-string-const",
    providers: ["google"],
    severity: "warning",
    kind: "schema",
    source: "anomalyco/opencode #2687 (inferred: the SDK turns const into an enum; Gemini enums hold strings)",
    check: (tool) =>
      nodes(tool.parameters)
        .filter(({ node }) => "const" in node && typeof node["const"] !== "string")
        .map(
          ({ node, pointer }) =>
            `${describePointer(pointer)} is the literal ${JSON.stringify(node["const"])} (z.literal of a number or boolean): Gemini accepts only string enum values`,
        ),
  },
  {
    id: "gemini/all-of",
    providers: ["google"],
    severity: "warning",
    kind: "schema",
    source: "ai.google.dev Schema (inferred: allOf is not a field of Gemini's Schema)",
    check: (tool) =>
      nodes(tool.parameters)
        .filter(({ node }) => "allOf" in node)
        .map(
          ({ pointer }) =>
            `${describePointer(pointer)} uses allOf (z.intersection or .and()), which Gemini's Schema does not have`,
        ),
  },
  {
    id: "gemini-gateway/unknown-keys",
    providers: ["gemini-gateway"],
    severity: "error",
    kind: "schema",
    source: "ai.google.dev Schema; router-for-me/CLIProxyAPI #97 (Invalid JSON payload received. Unknown name)",
    check: (tool) => {
      const rejected = [
        "$schema",
        "additionalProperties",
        "const",
        "oneOf",
        "allOf",
        "$ref",
        "exclusiveMinimum",
        "exclusiveMaximum",
      ]
      const found = new Set<string>()
      walkSchema(tool.parameters, (node) => {
        if (isRecord(node)) for (const key of rejected) if (key in node) found.add(key)
      })
      return found.size > 0
        ? [
            `its schema has ${[...found].join(", ")}, which Gemini rejects when a gateway passes the schema through unchanged ("Unknown name")`,
          ]
        : []
    },
  },
  {
    id: "moonshot/type-beside-any-of",
    providers: ["moonshot"],
    severity: "error",
    kind: "schema",
    source: "MoonshotAI/walle validator (when using anyOf, type should be defined in anyOf items)",
    check: (tool) =>
      nodes(tool.parameters)
        .filter(({ node }) => "anyOf" in node && "type" in node)
        .map(({ pointer }) => `${describePointer(pointer)} has type beside anyOf, which Moonshot rejects`),
  },
  {
    id: "moonshot/ref-target",
    providers: ["moonshot"],
    severity: "error",
    kind: "schema",
    source: "MoonshotAI/walle validator; anomalyco/opencode #37496 ($defs not found for reference)",
    check: (tool) => {
      const defs = isRecord(tool.parameters["$defs"]) ? tool.parameters["$defs"] : {}
      const broken = localRefs(tool.parameters).filter((ref) => {
        const match = /^#\/\$defs\/([^/]+)$/.exec(ref)
        return match === null || !(match[1]! in defs)
      })
      return broken.length > 0
        ? [
            `its $refs (${broken.join(", ")}) do not point into a root $defs (opencode renames $defs to definitions): Moonshot answers "$defs not found for reference"`,
          ]
        : []
    },
  },
  {
    id: "moonshot/boolean-property",
    providers: ["moonshot"],
    severity: "error",
    kind: "schema",
    source: "can1357/oh-my-pi #5952 (property schema for '...' must be an object)",
    check: (tool) => {
      const problems: string[] = []
      walkSchema(tool.parameters, (node, pointer, key) => {
        if (typeof node === "boolean" && key === "properties")
          problems.push(
            `${describePointer(pointer)} is the boolean schema ${node} (args that are not zod): Moonshot needs an object`,
          )
      })
      return problems
    },
  },
  {
    id: "bedrock/description",
    providers: ["bedrock"],
    severity: "warning",
    kind: "schema",
    source: "AWS Bedrock API_runtime_ToolSpecification (inferred: description has a minimum length of 1)",
    check: (tool) =>
      tool.description === "" ? ["its description is empty, which Bedrock's ToolSpecification does not allow"] : [],
  },
]

// --- internal ---

function nameRule(
  id: string,
  providers: LintProvider[],
  pattern: RegExp,
  max: number,
  allowed: string,
  source: string,
): LintRule {
  return {
    id,
    providers,
    severity: "error",
    kind: "name",
    source,
    check: (tool) => {
      const problems: string[] = []
      if (!pattern.test(tool.name)) problems.push(`its name ${JSON.stringify(tool.name)} is not ${allowed}`)
      if (tool.name.length > max) problems.push(`its name has ${tool.name.length} characters, over ${max}`)
      return problems
    },
  }
}

function nodes(schema: unknown): Array<{ node: Record<string, unknown>; pointer: string }> {
  const found: Array<{ node: Record<string, unknown>; pointer: string }> = []
  walkSchema(schema, (node, pointer) => {
    if (isRecord(node)) found.push({ node, pointer })
  })
  return found
}

function hasProperties(node: Record<string, unknown>): boolean {
  return isRecord(node["properties"]) && Object.keys(node["properties"]).length > 0
}

/** True when following $refs from some definition leads back to it. */
function isRecursive(root: Record<string, unknown>): boolean {
  const targets = (node: unknown) =>
    localRefs(node)
      .map((ref) => resolvePointer(root, ref))
      .filter((target) => target !== undefined)
  const visiting = new Set<unknown>()
  const cycles = (node: unknown): boolean => {
    if (visiting.has(node)) return true
    visiting.add(node)
    const found = targets(node).some(cycles)
    visiting.delete(node)
    return found
  }
  return localRefs(root).some((ref) => cycles(resolvePointer(root, ref)))
}
