// The CLI run by Bun instead of Node. bin.js is a POSIX sh launcher before it is JavaScript: for
// the commands that load tools with the bun engine it starts the CLI in that very Bun (a Bun
// starts ~5x faster than Node here), so a cold `run` pays one runtime's start-up less. It finds
// the Bun as the CLI does (--engine-binary, TOOL_TESTER_ENGINE_BINARY, then opencode on PATH: a
// binary, or npm's opencode launcher, which the list maps to the binary beside it) and takes it
// when an earlier run used it as its engine (the list below), or when there is no node at all. It
// says so in TOOL_TESTER_BUN_HOST ("source:binary"), which bun-early.ts reads first thing. What
// the Bun-hosted CLI does not do (the node engine's worker thread, --watch, the commands that run
// no tools) goes back to Node. docs/cli.md, "How tool-tester starts".
import type { BunLocation } from "../engine/find-bun.ts"
import { LAUNCHER_SOURCES } from "./bun-early.ts"

/** Runs this same command line in Node and exits with its status: what the Bun host does not do. */
export async function runInNode(argv: readonly string[]): Promise<never> {
  const { spawnSync } = await import("node:child_process")
  const { fileURLToPath } = await import("node:url")
  const bin = fileURLToPath(new URL("../../bin.js", import.meta.url))
  const child = spawnSync("node", [bin, ...argv], { stdio: "inherit", env: process.env })
  if (child.error) {
    process.stderr.write(
      `tool-tester: this command needs Node.js, and no \`node\` was found on PATH (${child.error.message}): install Node.js ${(await import("./node-version.ts")).MINIMUM_NODE} or newer.\n`,
    )
    process.exit(127)
  }
  const signals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }
  process.exit(child.status ?? 128 + (signals[child.signal ?? ""] ?? 0))
}

/**
 * The file that lists the Bun binaries the launcher may start the CLI in: one line per Bun, the
 * path the CLI found it by (a Bun, a link to one, or npm's opencode launcher script), a tab, the
 * Bun itself.
 */
export async function bunHostsFile(env: Record<string, string | undefined>): Promise<string> {
  const { cacheDirectory } = await import("../engine/opencode-binary.ts")
  const path = await import("node:path")
  return path.join(cacheDirectory(env), "bun-hosts")
}

/**
 * Adds a Bun that just answered as this CLI's engine to the launcher's list, when the launcher can
 * find it and would not take it yet (not listed, or changed since the list was written). Best
 * effort: a cache that cannot be written only keeps the next run on Node.
 */
export async function rememberBunHost(location: BunLocation, env: Record<string, string | undefined>): Promise<void> {
  if (!LAUNCHER_SOURCES.includes(location.source) || location.foundAs === undefined) return
  const fs = await import("node:fs")
  const path = await import("node:path")
  try {
    const seen = location.foundAs
    const entry = `${seen}\t${location.binary}`
    if (/[\t\n]/.test(seen + location.binary)) return
    const file = await bunHostsFile(env)
    let entries: string[] = []
    try {
      const listedAt = fs.statSync(file).mtimeMs
      entries = fs.readFileSync(file, "utf8").split("\n").filter(Boolean)
      const changed = [seen, location.binary].some((file) => fs.statSync(file).mtimeMs > listedAt)
      if (!changed && entries.includes(entry)) return
    } catch {}
    const kept = entries.filter((line) => !line.startsWith(`${seen}\t`) && fs.existsSync(line.split("\t")[1] ?? ""))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    fs.writeFileSync(temporary, `${[...kept, entry].join("\n")}\n`)
    fs.renameSync(temporary, file)
  } catch {}
}

/**
 * Resolves once stdout and stderr have handed everything to the system. Node's `drain` says so;
 * Bun keeps what a full pipe cannot take in memory and says so only when the stream is ended.
 */
export function flushStdio(): Promise<unknown> {
  return Promise.all(
    [process.stdout, process.stderr].map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (typeof process.versions.bun === "string") {
            if (stream.writableFinished) return resolve()
            stream.once("finish", resolve)
            stream.once("error", () => resolve())
            stream.end()
            return
          }
          if (stream.writableLength === 0) return resolve()
          stream.once("drain", resolve)
          stream.once("error", () => resolve())
        }),
    ),
  )
}
