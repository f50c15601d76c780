import { expect, test } from "vitest"
import { getToolSchemas, loadTools } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

// A fresh form is a valid call: its start values satisfy the schema the model receives. The page's
// module is imported by a path tsc does not follow: it is type-checked with the page's own settings.
const schemaForm = "../../inspector-ui/src/schema-form.ts"
const { initialValue } = (await import(schemaForm)) as { initialValue: (schema: unknown) => unknown }
const bounded = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Bounded",
  args: {
    times: tool.schema.number().int().min(1),
    ratio: tool.schema.number().gt(0).lt(1),
    below: tool.schema.number().int().max(-3),
    name: tool.schema.string().min(2),
    tags: tool.schema.array(tool.schema.string()).min(1),
  },
  async execute() { return "ok" },
})
`

test("the form starts valid for the schema: min(1) is 1, not 0, and the other bounds hold", async () => {
  const start = await startValues("bounded", bounded)
  expect(start).toEqual({ times: 1, ratio: 0.5, below: -3, name: "aa", tags: [""] })
})

const unions = `import { tool } from "@opencode-ai/plugin"
const z = tool.schema
export default tool({
  description: "Unions",
  args: {
    either: z.union([z.string(), z.number()]),
    shape: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("circle"), r: z.number() }),
      z.object({ kind: z.literal("square"), side: z.number() }),
    ]),
    level: z.union([z.literal(1), z.literal(2)]),
    maybe: z.union([z.string(), z.number()]).nullable(),
  },
  async execute() { return "ok" },
})
`

test("a union starts as its first option, not as null, which no option accepts", async () => {
  const start = await startValues("unions", unions)
  expect(start).toEqual({ either: "", shape: { kind: "circle", r: 0 }, level: 1, maybe: "" })
})

const tuples = `import { tool } from "@opencode-ai/plugin"
const z = tool.schema
export default tool({
  description: "Tuples",
  args: {
    pair: z.tuple([z.string(), z.number()]),
    point: z.tuple([z.number(), z.number()]).nullable(),
  },
  async execute() { return "ok" },
})
`

test("a tuple starts with one value per position, not as an empty list its positions reject", async () => {
  const start = await startValues("tuples", tuples)
  expect(start).toEqual({ pair: ["", 0], point: [0, 0] })
})

/** The form's start values for the tool `name`, defined by `source` in a project of its own. */
async function startValues(name: string, source: string): Promise<Record<string, unknown>> {
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory: tmpProject({ [`.opencode/tools/${name}.ts`]: source }), env, home })
  const schemas = await getToolSchemas(project)
  if (!schemas.success) throw schemas.error
  const parameters = schemas.value.find((schema) => schema.name === name)!.parameters
  return initialValue(parameters) as Record<string, unknown>
}
