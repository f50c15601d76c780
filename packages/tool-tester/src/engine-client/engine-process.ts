// An engine's process started, its hello written: what starting an engine needs, apart from what
// talking to it needs (engine-connection.ts: reading its channel, its console, its end). The CLI
// starts the process with this alone and loads the connection while the engine starts up
// (tasks/engine-task.ts). What the process does before the connection listens is kept here: a
// failed start (which would otherwise throw, unheard), its exit, and whether it made the file named
// in the hello. Its output waits in its pipes until the connection reads it (release).
import type { ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import path from "node:path"
import type { Readable } from "node:stream"
import type { EngineSelection } from "./choose-engine.ts"
import type { Hello } from "./protocol.ts"
import type { SpawnEngineOptions } from "./spawn-engine.ts"
import { endEngine, engineTempOf, spawnEngine } from "./spawn-engine.ts"

export type EngineProcess = {
  readonly selection: EngineSelection
  readonly child: ChildProcess
  /** The secret of its hello, which every line on its channel carries. */
  readonly secret: string
  /** The first error the process emitted (a binary that cannot be started). */
  error: Error | undefined
  /** How it exited, once it has. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  /** It made the file named in the hello before it exited (see engine-connection.ts). */
  closedFileMade: boolean
  /** It was ended on purpose (endEngineProcess): the channel closing is our doing. */
  ending: boolean
  /** Lets go of its pipes (stdout, stderr, the channel), for the connection to read them from now on. */
  readonly release: () => void
}

/** Starts the engine's process in `options.cwd` and writes its hello. */
export function startEngineProcess(selection: EngineSelection, options: SpawnEngineOptions): EngineProcess {
  const child = spawnEngine(selection, options)
  const secret = randomBytes(32).toString("base64url")
  // Made by the engine before it ends with CHANNEL_CLOSED_EXIT_CODE: a name no tool can guess.
  const temp = engineTempOf(child)
  const closedFile =
    temp === undefined ? undefined : path.join(temp, `channel-closed-${randomBytes(16).toString("hex")}`)
  // A pipe nobody reads when the process exits is drained a turn later by Node, its data dropped and
  // its end unseen by whoever reads it after: an engine that exits at once (a binary that is no Bun)
  // would leave the connection waiting. Until the connection reads them, a listener holds them.
  const pipes = [child.stdout, child.stderr, child.stdio[3] as Readable | null | undefined].filter(
    (pipe): pipe is Readable => pipe != null,
  )
  const hold = () => {}
  for (const pipe of pipes) pipe.on("readable", hold)
  const started: EngineProcess = {
    selection,
    child,
    secret,
    error: undefined,
    exit: undefined,
    closedFileMade: false,
    ending: false,
    release: () => {
      for (const pipe of pipes) pipe.removeListener("readable", hold)
    },
  }
  child.on("error", (error: Error) => {
    started.error ??= error
  })
  // Looked for as soon as the engine has exited, before spawn-engine.ts removes its folder.
  child.prependOnceListener("exit", (code: number | null, signal: NodeJS.Signals | null) => {
    started.closedFileMade = closedFile !== undefined && existsSync(closedFile)
    started.exit = { code, signal }
  })
  // Writing to an engine that has ended fails with EPIPE: its exit says what happened.
  child.stdin?.on("error", () => {})
  const hello: Hello = closedFile === undefined ? { type: "hello", secret } : { type: "hello", secret, closedFile }
  child.stdin?.write(`${JSON.stringify(hello)}\n`)
  return started
}

/** Ends the engine and everything it started, at once. */
export function endEngineProcess(started: EngineProcess): void {
  started.ending = true
  endEngine(started.child)
}
