// Keeps the client and looks at it from tools: its keys and every namespace's methods (own keys,
// then the prototype's), without calling the server.
let kept: Record<string, unknown> | undefined

function methods(value: unknown): string {
  if (typeof value !== "object" || value === null) return typeof value
  const own = Object.keys(value).map((key) => {
    const inner = (value as Record<string, unknown>)[key]
    return key === "_client" || typeof inner !== "object" ? `${key}:${typeof inner}` : `${key}{${methods(inner)}}`
  })
  const prototype = Object.getPrototypeOf(value)
  const onPrototype =
    prototype === null || prototype === Object.prototype
      ? []
      : Object.getOwnPropertyNames(prototype)
          .filter((key) => key !== "constructor")
          .map((key) => `${key}:${typeof prototype[key]}`)
  return [...own, ...onPrototype].join(" ")
}

export const ClientKept = async (input: { client: Record<string, unknown> }) => {
  kept = input.client
  return {
    tool: {
      client_kept: {
        description: "Sorted keys of the client kept at init",
        args: {},
        execute: async () =>
          Object.keys(kept ?? {})
            .sort()
            .join(","),
      },
      client_shape: {
        description: "Each namespace of the kept client: own keys and methods",
        args: {},
        execute: async () =>
          Object.keys(kept ?? {})
            .filter((key) => key !== "_client")
            .map((key) => `${key}: ${methods(kept?.[key])}`)
            .join("\n"),
      },
      client_http: {
        description: "The keys of the kept client's _client",
        args: {},
        execute: async () => {
          const http = (kept?.["_client"] ?? {}) as Record<string, unknown>
          return Object.keys(http)
            .map((key) => `${key}:${typeof http[key]}`)
            .join(" ")
        },
      },
    },
  }
}
