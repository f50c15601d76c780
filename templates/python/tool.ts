import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { tool } from "@opencode-ai/plugin"

// @tool-begin
export default tool({
  description: "__DESCRIPTION__",
  args: {
    text: tool.schema.string().describe("The text to count"),
  },
  async execute(args, context) {
    // opencode does not validate arguments, so make sure the script gets a string.
    const script = fileURLToPath(new URL("__SCRIPT_URL__", import.meta.url))
    return runPython([script, String(args.text)], context)
  },
})
// @tool-end

/** The interpreter: $PYTHON when set, else python3 (python on Windows). */
const python = process.env.PYTHON ?? (process.platform === "win32" ? "python" : "python3")

/**
 * Runs Python with `argv` as separate arguments, never through a shell: quotes, `;` and `$(...)`
 * reach the script unchanged. Resolves with what it printed; rejects with its error output.
 */
function runPython(argv: string[], context: { directory: string; abort: AbortSignal }): Promise<string> {
  const options = { cwd: context.directory, signal: context.abort, timeout: 30_000, windowsHide: true }
  return new Promise((resolve, reject) => {
    execFile(python, argv, options, (error, stdout, stderr) => {
      if (error === null) return resolve(stdout.trim())
      if (error.code === "ENOENT") return reject(new Error(`${python} was not found: install Python 3 or set PYTHON.`))
      reject(new Error(stderr.trim() || error.message))
    })
  })
}
