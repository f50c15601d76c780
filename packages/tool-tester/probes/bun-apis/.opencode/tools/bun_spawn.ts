import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Runs echo with Bun.spawn and Bun.spawnSync",
  args: {},
  async execute() {
    const child = Bun.spawn(["echo", "hi"], { stdout: "pipe" })
    const stdout = await new Response(child.stdout).text()
    const exitCode = await child.exited
    const sync = Bun.spawnSync(["echo", "sync"])
    return JSON.stringify({
      spawn: { stdout, exitCode },
      spawnSync: { stdout: sync.stdout.toString(), exitCode: sync.exitCode, success: sync.success },
    })
  },
})
