import { execFile } from "node:child_process"
import { tool } from "@opencode-ai/plugin"

// @tool-begin
export default tool({
  description: "__DESCRIPTION__",
  args: {
    command: tool.schema.string().describe("The program to run, such as git"),
    args: tool.schema.array(tool.schema.string()).optional().describe("Its arguments, one per item"),
  },
  async execute(args, context) {
    // opencode does not validate arguments (nor apply defaults), so check them first: what is
    // thrown here is what the model reads, and it can call again with arguments that fit.
    const command = String(args.command ?? "")
    if (command === "") throw new Error("command is empty: name the program to run, such as git")
    if (args.args !== undefined && args.args !== null && !Array.isArray(args.args))
      throw new Error('args must be an array of strings, one argument per item, such as ["status", "--short"]')
    const argv = (args.args ?? []).map(String)
    const commandLine = [command, ...argv].join(" ")
    // opencode asks the user, or applies their "permission" rules for "__TOOL_ID__" in opencode.json.
    // A refusal rejects this promise: the program does not run and the model is told why.
    await context.ask({
      permission: "__TOOL_ID__",
      patterns: [commandLine],
      always: [`${command} *`],
      metadata: { command, args: argv },
    })
    const { exitCode, stdout, stderr } = await runProgram(command, argv, context)
    const output = exitCode === 0 ? stdout : `${stdout}${stderr}\nExit code ${exitCode}`
    return { title: commandLine, output, metadata: { exitCode } }
  },
})
// @tool-end

type ProgramResult = { exitCode: number; stdout: string; stderr: string }

/**
 * Runs `command` with `argv` as separate arguments, never through a shell: quotes, `;`, `|` and
 * `$(...)` are passed to the program as they are, not interpreted.
 */
function runProgram(
  command: string,
  argv: string[],
  context: { directory: string; abort: AbortSignal },
): Promise<ProgramResult> {
  const options = {
    cwd: context.directory,
    signal: context.abort,
    timeout: 60_000,
    maxBuffer: 10 * 1024 * 1024,
    windowsHide: true,
  }
  return new Promise((resolve, reject) => {
    execFile(command, argv, options, (error, stdout, stderr) => {
      if (error === null) return resolve({ exitCode: 0, stdout, stderr })
      if (typeof error.code === "number") return resolve({ exitCode: error.code, stdout, stderr })
      reject(error.code === "ENOENT" ? new Error(`${command}: program not found`) : error)
    })
  })
}
