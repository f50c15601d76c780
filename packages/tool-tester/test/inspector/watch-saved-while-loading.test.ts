// A module a load found that was saved while that load ran (after the engine read it, before the
// watcher was set on it) is reported when the watcher takes it on: no watch saw that save, and the
// load may have read the file before it. One saved before the load began is not: the save that
// started the load. The first watch does the same for every file it watches: none existed while
// the first load (or run) ran. A file the load read that is gone when the watcher takes it on
// (removed while the load ran) is reported too. In-process, on the watcher alone (dev and run
// --watch pass the load's start).
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { watchProject } from "../../src/inspector/watch-project.ts"
import { useTmpDir } from "../helpers.ts"

test("a file the watcher takes on is reported when it was saved since the load began, not before", async () => {
  const directory = useTmpDir()
  const file = (name: string) => path.join(directory, name)
  writeFileSync(file("helper.ts"), "export {}\n")
  const reported: string[][] = []
  let report: () => void = () => undefined
  const reportedOrNot = (event: Promise<void>) =>
    Promise.race([
      event.then(() => "reported"),
      new Promise<string>((resolve) => setTimeout(() => resolve("not reported within 10 s"), 10_000)),
    ])
  const watcher = watchProject({ deep: [], shallow: [], files: [file("helper.ts")] }, (files) => {
    reported.push(files)
    report()
  })
  try {
    // Saved before the load began (a minute ago): what the load read, already.
    writeFileSync(file("old.ts"), "export {}\n")
    const minuteAgo = new Date(Date.now() - 60_000)
    utimesSync(file("old.ts"), minuteAgo, minuteAgo)
    const loadBegan = Date.now()
    // Saved while the load ran, before the watcher took it on: no watch saw it.
    writeFileSync(file("saved.ts"), "export const saved = true\n")
    // The watcher has read those events (for names it does not watch) before it takes the files on,
    // as it has during a load: otherwise the new watch of the folder would get them still (Linux).
    await new Promise((resolve) => setTimeout(resolve, 50))

    const first = new Promise<void>((resolve) => (report = resolve))
    watcher.retarget({ deep: [], shallow: [], files: [file("helper.ts"), file("old.ts"), file("saved.ts")] }, loadBegan)
    expect(await reportedOrNot(first)).toBe("reported")
    expect(reported).toEqual([[file("saved.ts")]])

    // Taken on already: the next load's retarget reports nothing more, and saves are seen as before.
    const second = new Promise<void>((resolve) => (report = resolve))
    watcher.retarget(
      { deep: [], shallow: [], files: [file("helper.ts"), file("old.ts"), file("saved.ts")] },
      Date.now(),
    )
    writeFileSync(file("old.ts"), "export const edited = true\n")
    expect(await reportedOrNot(second)).toBe("reported")
    expect(reported).toEqual([[file("saved.ts")], [file("old.ts")]])
  } finally {
    watcher.stop()
  }
})

test("the first watch reports the files it watches that were saved since the first load began, not before", async () => {
  const { directory, file, save } = tmpProject()
  // Saved before the load began (a minute ago): what the load read, already.
  for (const name of ["tools/old.ts", "opencode.json", "lib/old-helper.ts"]) save(name, "before the load")
  const loadBegan = Date.now()
  // Saved while the load ran, before any watch existed: a tool (one in a folder below too), a
  // config file, a helper; and what no watch reports either (node_modules, a README, an editor's
  // swap file, a file of a folder not watched).
  const saved = ["tools/new.ts", "tools/nested/deep.ts", "package.json", "lib/helper.ts"]
  for (const name of [...saved, "tools/node_modules/dep/index.js", "README.md", "tools/.new.ts.swp", "lib/other.ts"])
    save(name)

  const reported: string[][] = []
  let report: () => void = () => undefined
  const first = new Promise<void>((resolve) => (report = resolve))
  const watcher = watchProject(
    { deep: [file("tools")], shallow: [directory], files: [file("lib/old-helper.ts"), file("lib/helper.ts")] },
    (files) => {
      reported.push(files)
      report()
    },
    loadBegan,
  )
  try {
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("not reported within 10 s"), 10_000))
    expect(await Promise.race([first.then(() => "reported"), timeout])).toBe("reported")
    expect(reported.map((files) => [...files].sort())).toEqual([saved.map(file).sort()])
  } finally {
    watcher.stop()
  }
})

test("a file the load read that is gone when the watcher takes it on is reported: removed while the load ran", async () => {
  const { directory, file, save } = tmpProject()
  // Saved before the load began: only a removal is news.
  for (const name of ["tools/kept.ts", "tools/removed.ts", "lib/helper.ts", "lib/later.ts", "opencode.json"])
    save(name, "before the load")
  const loadBegan = Date.now()
  // Removed while the first load ran, after it read them: a tool and a config file. No watch existed.
  rmSync(file("tools/removed.ts"))
  rmSync(file("opencode.json"))

  const reported: string[][] = []
  let report: () => void = () => undefined
  const reportedOrNot = (event: Promise<void>) =>
    Promise.race([
      event.then(() => "reported"),
      new Promise<string>((resolve) => setTimeout(() => resolve("not reported within 10 s"), 10_000)),
    ])
  const targets = (read: string[]) => ({
    deep: [file("tools")],
    shallow: [directory],
    files: read.filter((name) => name.startsWith("lib/")).map(file),
    read: read.map(file),
  })
  const first = new Promise<void>((resolve) => (report = resolve))
  const watcher = watchProject(
    targets(["tools/kept.ts", "tools/removed.ts", "lib/helper.ts", "opencode.json"]),
    (files) => {
      reported.push(files)
      report()
    },
    loadBegan,
  )
  try {
    expect(await reportedOrNot(first)).toBe("reported")
    expect(reported.map((files) => [...files].sort())).toEqual([[file("opencode.json"), file("tools/removed.ts")]])

    // The reload reads a helper no load read before, removed while that reload ran: reported when
    // the watcher takes it on. A file an earlier load read and that is gone still (its import
    // failed, and still names it) is not reported again: it would reload for ever.
    const reloadBegan = Date.now()
    rmSync(file("lib/later.ts"))
    // The watcher has read that event (for a name it does not watch) before it takes the file on.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const second = new Promise<void>((resolve) => (report = resolve))
    watcher.retarget(targets(["tools/kept.ts", "tools/removed.ts", "lib/helper.ts", "lib/later.ts"]), reloadBegan)
    expect(await reportedOrNot(second)).toBe("reported")
    expect(reported.slice(1)).toEqual([[file("lib/later.ts")]])
  } finally {
    watcher.stop()
  }
})

/** A project folder, and a save of a file in it (its folders made): now, or a minute ago, before the load began. */
function tmpProject() {
  const directory = useTmpDir()
  const file = (name: string) => path.join(directory, name)
  const save = (name: string, when: "now" | "before the load" = "now") => {
    mkdirSync(path.dirname(file(name)), { recursive: true })
    writeFileSync(file(name), "export {}\n")
    if (when === "now") return
    const minuteAgo = new Date(Date.now() - 60_000)
    utimesSync(file(name), minuteAgo, minuteAgo)
  }
  return { directory, file, save }
}
