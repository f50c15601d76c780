// dev reloads on a save of a helper module a tool imports from outside the tool folders (here
// .opencode/lib/), under both engines: the engine that loaded the tools says which files they
// imported, and the watcher follows that set from load to load (an import a save adds, a helper
// that failed to compile or imports one that did, a helper a tool imports only inside execute (one
// that failed to compile there too), a helper a save imported that was saved again while that
// reload ran, a tool file removed while the first load ran). In-process, without a browser; one
// session per engine.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { afterEach, describe, expect, test } from "vitest"
import { InspectorSession } from "../../src/inspector/session.ts"
import { makeProject } from "./_inspector.ts"

const echo = `import { tool } from "@opencode-ai/plugin"
import { word } from "../lib/helper.ts"
export default tool({ description: "Says the helper's word", args: {}, async execute() { return word() } })
`
// A heavy dependency is often imported only when the tool runs: unknown at load, reported by its call.
const lazy = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says the lazy helper's word", args: {}, async execute() {
  const { word } = await import("../lib/lazy.ts")
  return word
} })
`
// A helper imported only when the tool runs that does not compile: the call fails, and the save
// that fixes it re-runs the call (Bun's module cache has no module that failed to build).
const broken = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says the broken helper's word", args: {}, async execute() {
  const { word } = await import("../lib/broken.ts")
  return word
} })
`
const helper = (body: string) => `export function word(): string {\n  ${body}\n}\n`

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

describe.each(["bun", "node"] as const)("under the %s engine", (engine) => {
  test("a save of an imported helper re-runs the last call with its new code", { timeout: 120_000 }, async () => {
    const project = makeProject({
      ".opencode/tools/echo.ts": echo,
      ".opencode/lib/helper.ts": helper(`return "first"`),
      ".opencode/lib/second.ts": `export const second = "second"\n`,
      ".opencode/tools/lazy.ts": lazy,
      ".opencode/lib/lazy.ts": `export const word = "lazy"\n`,
      ".opencode/lib/third.ts": `export const third = "third"\n`,
      ".opencode/tools/broken.ts": broken,
      ".opencode/lib/broken.ts": `export const word = (\n`,
    })
    // A tool file removed as it is imported: while the first load ran, after the engine read it.
    const self = path.join(project.directory, ".opencode", "tools", "self.ts")
    writeFileSync(
      self,
      `import { rmSync } from "node:fs"\nimport { tool } from "@opencode-ai/plugin"\nrmSync(${JSON.stringify(self)})\nexport default tool({ description: "Gone", args: {}, async execute() { return "" } })\n`,
    )
    cleanup.push(project.remove)
    const lib = (name: string) => path.join(project.directory, ".opencode", "lib", name)
    const session = new InspectorSession({
      directory: project.directory,
      cwd: project.directory,
      global: false,
      engine,
    })
    cleanup.push(() => session.close())
    await session.start()
    expect(session.view()?.tools.map((tool) => tool.id)).toContain("self")
    // No watch existed to see self.ts go; the first watch finds it gone, and the reload drops the
    // tool from the list, as opencode would.
    const dropped = new Promise<string>((resolve) => {
      let reloading = false
      const stop = session.subscribe((event) => {
        if (event.type === "reloading" && event.files.includes(self)) reloading = true
        if (!reloading || event.type !== "project" || event.view.tools.some((tool) => tool.id === "self")) return
        stop()
        resolve("dropped")
      })
    })
    const bound = new Promise<string>((resolve) => setTimeout(() => resolve("no reload within 20 s"), 20_000))
    expect(await Promise.race([dropped, bound])).toBe("dropped")
    const first = await session.call({ name: "echo", form: "args", args: {} })
    expect(first.result?.output).toBe("first")

    /**
     * What the re-run of the next reload gave: its output, or its error's code; once that reload
     * also set its watches and the ones it replaced were closed (SETTLE_MS in watch-project.ts, far
     * below the 100 ms waited), so that the next save is seen only by what this load watches.
     */
    const saved = async (file: string, content: string) => {
      const reloaded = new Promise<string | undefined>((resolve) => {
        let shown = false
        let rerun: { output: string | undefined } | undefined
        const stop = session.subscribe((event) => {
          if (event.type === "project") shown = true
          if (event.type === "call" && event.entry.trigger === "reload" && !event.entry.running)
            rerun = { output: event.entry.result?.error?.code ?? event.entry.result?.output }
          if (!shown || !rerun) return
          stop()
          // The watches are set just after the view is sent, in the same turn.
          setTimeout(() => resolve(rerun?.output), 100)
        })
      })
      writeFileSync(file, content)
      const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("no reload within 20 s"), 20_000))
      return Promise.race([reloaded, timeout])
    }

    // A helper the tool imports inside execute: once a call imported it, a save of it re-runs the
    // call, on its new code; the re-run imports it again, so the next save reloads too.
    expect((await session.call({ name: "lazy", form: "args", args: {} })).result?.output).toBe("lazy")
    expect(await saved(lib("lazy.ts"), `export const word = "lazier"\n`)).toBe("lazier")
    expect(await saved(lib("lazy.ts"), `export const word = "laziest"\n`)).toBe("laziest")

    // A helper imported inside execute that does not compile: the call fails, and names it; the save
    // that fixes it re-runs the call.
    expect((await session.call({ name: "broken", form: "args", args: {} })).result?.error?.code).toBe("TOOL_THREW")
    expect(await saved(lib("broken.ts"), `export const word = "mended"\n`)).toBe("mended")

    // The helper now imports another one: after that reload, a save of the new one reloads too.
    expect((await session.call({ name: "echo", form: "args", args: {} })).result?.output).toBe("first")
    expect(await saved(lib("helper.ts"), `import { second } from "./second.ts"\n${helper("return second")}`)).toBe(
      "second",
    )
    expect(await saved(lib("second.ts"), `export const second = "third"\n`)).toBe("third")
    // A helper's own import no longer compiles: Bun's error names only that file, yet the helper
    // between is watched still, so the save that drops the import reloads.
    expect(await saved(lib("second.ts"), `export const second = (\n`)).not.toBe("no reload within 20 s")
    expect(await saved(lib("helper.ts"), helper(`return "mended"`))).toBe("mended")
    // A helper that no longer compiles: the load fails that tool, and the save that fixes it reloads.
    expect(await saved(lib("helper.ts"), helper(`return (`))).not.toBe("no reload within 20 s")
    expect(await saved(lib("helper.ts"), helper(`return "fixed"`))).toBe("fixed")

    // A save imports a new helper, which is saved again while that reload runs: after the engine
    // read it, before the watches were set on it (here the helper saves it as it loads, once, as an
    // author would a moment after the first save). No watch saw that save, yet one more load reads it.
    const once = path.join(project.directory, "saved-once")
    const savesThird = `import { existsSync, writeFileSync } from "node:fs"
import { third } from "./third.ts"
if (!existsSync(${JSON.stringify(once)})) {
  writeFileSync(${JSON.stringify(once)}, "")
  writeFileSync(${JSON.stringify(lib("third.ts"))}, 'export const third = "saved during the load"\\n')
}
${helper("return third")}`
    const reruns: Array<string | undefined> = []
    const resaved = new Promise<string>((resolve) => {
      const stop = session.subscribe((event) => {
        if (event.type !== "call" || event.entry.trigger !== "reload" || event.entry.running) return
        reruns.push(event.entry.result?.error?.code ?? event.entry.result?.output)
        if (reruns.at(-1) !== "saved during the load") return
        stop()
        resolve("read by one more load")
      })
    })
    writeFileSync(lib("helper.ts"), savesThird)
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("no reload within 20 s"), 20_000))
    expect(await Promise.race([resaved, timeout])).toBe("read by one more load")
    // The first save's reload read third.ts as it was before the second save.
    expect(reruns[0]).toBe("third")
  })
})
