import { tool } from "@opencode-ai/plugin"

const z = tool.schema

export default tool({
  description: "Primitive types, optionality, defaults, descriptions and meta",
  args: {
    text: z.string(),
    amount: z.number(),
    flag: z.boolean(),
    whole: z.number().int(),
    positiveWhole: z.number().int().min(1),
    maybe: z.string().optional(),
    nullable: z.string().nullable(),
    optionalNullable: z.string().optional().nullable(),
    nullish: z.string().nullish(),
    withDefault: z.number().default(5),
    describedDefault: z.string().default("x").describe("has default"),
    describedThenOptional: z.string().describe("described first").optional(),
    optionalThenDescribed: z.string().optional().describe("described last"),
    describedList: z.array(z.string().describe("item")).describe("list"),
    withMeta: z.string().meta({ title: "Meta title", examples: ["ex1"] }),
  },
  async execute(args) {
    return JSON.stringify(args)
  },
})
