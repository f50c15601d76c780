import { tool } from "@opencode-ai/plugin"

const z = tool.schema

const tree: any = z.lazy(() => z.object({ name: z.string(), children: z.array(tree) }))

const category: any = z.object({
  name: z.string(),
  get subcategories() {
    return z.array(category)
  },
})

export default tool({
  description: "any/unknown, coercion, transforms, refinements and recursive schemas",
  args: {
    anyValue: z.any(),
    unknownValue: z.unknown(),
    describedAny: z.any().describe("whatever"),
    coerced: z.coerce.number(),
    transformed: z.string().transform((value) => value.length),
    refined: z.string().refine((value) => value.startsWith("ok")),
    trimmed: z.string().trim(),
    tree: tree.describe("a recursive tree"),
    category,
  },
  async execute(args) {
    return JSON.stringify(args)
  },
})
