// What a load past its bound says, for the CLI's tasks and the library's bounded loads alike.

/**
 * Why a load did not finish within its bound: the file whose import was running, or the plugin
 * function whose init was (it imported; its function never returned), else no file at all.
 */
export function loadStalled(file: string | undefined, init: string | undefined, loadTimeoutMs: number): string {
  if (file === undefined)
    return `loading the tool and plugin files did not finish within ${loadTimeoutMs} ms: look for a top-level await that never settles or a loop at import time`
  if (init !== undefined)
    return `${file}: its plugin function ${init} did not finish its init within ${loadTimeoutMs} ms (an await that never settles, or a loop, before it returns its hooks); opencode would wait for it forever, with no tool at all`
  return `${file}: importing it did not finish within ${loadTimeoutMs} ms (a top-level await that never settles, or a loop at import time); opencode would wait for it forever, with no tool at all`
}
