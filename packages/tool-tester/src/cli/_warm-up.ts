// A cache that is shared by the whole process, warmed on the CLI's thread while the worker starts
// (the thread is idle then), so the worker does not pay for it on the way to the tool: ICU's
// collation data (opencode sorts the tool list with localeCompare: ~10 ms for the first compare).
export function warmProcessCaches(): void {
  "a".localeCompare("b")
}
