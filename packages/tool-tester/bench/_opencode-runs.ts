// The two reference runs the e2e and eval benches measure against, each timed alone: the floor,
// the opencode binary answering one text-only turn from the mock model in a sandbox prepared
// beforehand (it pays for opencode only), and one scripted `tool-tester e2e` run with one tool
// call, all in (copy of the project, sandbox, plugin pre-install, the call's extra model turn,
// teardown).
import { startMockModel } from "../src/e2e/mock-model.ts"
import { defaultProviderPackage } from "../src/e2e/opencode-config.ts"
import { runOpencodeProcess } from "../src/opencode/opencode-process.ts"
import { findPluginPackage } from "../src/opencode/plugin-package.ts"
import { runE2E } from "../src/e2e/run-e2e.ts"
import { createSandbox } from "../src/opencode/sandbox.ts"
import { configureSandbox } from "../src/e2e/sandbox-setup.ts"

/** Milliseconds `opencode run` takes for one text-only turn in a copy of `emptyProject`. */
export async function textTurnOnce(binary: string, emptyProject: string): Promise<number> {
  const sandbox = await createSandbox({ directory: emptyProject, copyProject: true })
  const mock = await startMockModel({ script: { turns: [{ text: "hello" }] } })
  try {
    const { env } = await configureSandbox(
      sandbox,
      {
        baseURL: mock.baseURL,
        model: "mock-model",
        providerPackage: defaultProviderPackage,
        plugins: [],
        config: undefined,
      },
      { pluginPackage: await findPluginPackage(emptyProject), configDirectories: [sandbox.globalConfigDirectory] },
    )
    const started = performance.now()
    const run = await runOpencodeProcess({
      binary,
      args: ["run", "--format", "json", "-m", "mock/mock-model", "say hello"],
      cwd: sandbox.project,
      env,
      marker: sandbox.marker,
      timeoutMs: 120_000,
    })
    const elapsed = performance.now() - started
    if (run.exitCode !== 0) throw new Error(`baseline opencode run failed: exit ${run.exitCode}`)
    return elapsed
  } finally {
    await mock.close()
    await sandbox.dispose()
  }
}

/** Milliseconds one `tool-tester e2e` run takes for one call of `tool`, checked to return `expected`. */
export async function e2eCallOnce(
  project: string,
  call: { tool: string; args: Record<string, unknown>; expected: string },
): Promise<number> {
  const started = performance.now()
  const result = await runE2E({
    directory: project,
    script: { turns: [{ calls: [{ tool: call.tool, args: call.args }] }, { text: "done" }] },
    timeoutMs: 120_000,
  })
  const elapsed = performance.now() - started
  if (result.calls[0]?.result !== call.expected)
    throw new Error(`e2e run returned ${JSON.stringify(result.calls[0]?.result)}`)
  return elapsed
}
