// One client call awaited inside the plugin function, while opencode initialises the plugin
// (docs/opencode-contract.md#plugin-input). The run's config names the call in the plugin's
// options: `["./await-call.ts", { "call": "app.log", "args": {...}, "await": true }]`. With
// `"await": false` the call is only started; the tool tells whether it had settled by then.
// Only the SHAPE of what the call gave is reported (keys, types, array lengths): ids, times and
// paths differ from run to run.

type Options = { call: string; args?: unknown; await?: boolean }

function shape(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "boolean") return value
  if (Array.isArray(value)) {
    if (value.length === 0) return []
    // Lists of names (provider.list's `connected` depends on the API keys in the environment): no count.
    if (typeof value[0] === "string") return ["string ..."]
    return [`${value.length} x`, shape(value[0], depth - 1)]
  }
  if (typeof value !== "object") return typeof value
  if (depth <= 0) return "object"
  // A wide map (provider.list's `default`: one entry per provider of the bundled catalogue) as its size.
  if (Object.keys(value).length > 20) return `object with ${Object.keys(value).length} keys`
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) out[key] = shape((value as Record<string, unknown>)[key], depth - 1)
  return out
}

function summary(result: unknown): unknown {
  if (typeof result !== "object" || result === null) return { value: shape(result, 1) }
  const record = result as { data?: unknown; error?: unknown; response?: { status?: number } }
  return {
    keys: Object.keys(result).sort(),
    status: record.response?.status ?? null,
    data: shape(record.data, 2),
    error: shape(record.error, 2),
  }
}

export const AwaitCall = async (input: { client: Record<string, Record<string, unknown>> }, options: Options) => {
  const [group, method] = options.call.split(".") as [string, string]
  const target = input.client[group] as Record<string, (args?: unknown) => Promise<unknown>>
  let settled: unknown = "pending"
  const started = target[method]!.call(target, options.args).then(
    (result) => (settled = summary(result)),
    (error: unknown) => (settled = { rejected: String(error) }),
  )
  if (options.await !== false) await started
  return {
    tool: {
      init_result: {
        description: "What the client call made during plugin init gave",
        args: {},
        execute: async () => JSON.stringify({ call: options.call, awaited: options.await !== false, settled }),
      },
    },
  }
}
