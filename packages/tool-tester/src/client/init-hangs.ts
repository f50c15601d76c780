// The client calls opencode 1.18.34 never answers while a plugin initialises: awaited inside a
// plugin function they hang the whole run; started without awaiting they answer once every plugin
// has initialised. Measured on the binary, one plugin per call (the plugin-client-init golden,
// docs/opencode-contract.md#plugin-input); every call not listed answers during init.
const HANGING_DURING_INIT = new Set<string>(["app.agents", "config.get", "session.list", "tool.ids"])

export function hangsDuringInit(path: string): boolean {
  return HANGING_DURING_INIT.has(path)
}

/** The calls that hang during init, for docs and tests. */
export function callsHangingDuringInit(): string[] {
  return [...HANGING_DURING_INIT].sort()
}
