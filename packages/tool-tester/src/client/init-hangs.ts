// The client calls opencode 1.18.34 answers while a plugin initialises. Awaiting any other call of
// the client's namespaces inside a plugin function hangs the whole run (every instance-scoped route
// waits for the plugins to finish initialising); started without awaiting, they answer once init is
// over. Measured on the binary, one plugin per call (the plugin-client-init golden,
// docs/opencode-contract.md#plugin-input). The HTTP client's own methods (`_client.get`, ...) were
// not probed: they are let through.
const ANSWERED_DURING_INIT = new Set<string>(["app.log", "event.subscribe", "global.event"])

export function hangsDuringInit(path: string): boolean {
  return !path.startsWith("_client.") && !ANSWERED_DURING_INIT.has(path)
}
