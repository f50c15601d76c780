// The engine's end of its channel to the Node side (serve.ts opens it before any user module can
// load). It reads the Node side's lines on stdin with a reader of its own (a tool that reads or
// emits on `process.stdin` does not reach it), and writes its own on file descriptor 3, each with
// the run's secret. The secret is the first line on stdin, read before the engine loads a tool;
// it never goes through the environment or the command line (both readable by the tool, through
// `/proc` too), nor through anything a tool can replace later: the functions used here are taken
// now, and the line is put together by hand, so a `toJSON` or a replaced `Buffer` method never sees
// it. What a tool can still do to the channel, and what it gets, is in
// docs/opencode-contract.md#what-a-tool-can-do-to-the-harness.
// A tool that closes (or replaces) descriptor 0 does not end the engine: Bun, and so opencode,
// ignores `fs.closeSync(0)`, and the call keeps its result there; Node closes it. The engine then
// reads nothing more, never takes the read that failed for the Node side having gone, says
// `stdin-closed` once (before its next message), and answers what it was given: the Node side
// gives it nothing more. A tool that closes descriptor 3 leaves nothing to say it on: the engine
// makes the Node side's file (Hello.closedFile), then ends with CHANNEL_CLOSED_EXIT_CODE.
import {
  closeSync as closeBinding,
  fstatSync as fstatBinding,
  mkdirSync as mkdirBinding,
  openSync as openBinding,
  read as readBinding,
  writeSync as writeSyncBinding,
} from "node:fs"
import { dirname as dirnameBinding } from "node:path"
import { pristineStringify } from "../_pristine.ts"
import { LineCutter, MAX_FRAME_BYTES } from "../engine-client/frames.ts"
import { wait } from "../runtime/pending-work.ts"
import type { FromEngine, ToEngine } from "../engine-client/protocol.ts"

/** The descriptor the engine writes its messages on (spawn-engine.ts opens it). */
const ENGINE_OUTPUT_FD = 3

export type EngineChannelHandlers = {
  /** A message of the Node side's, in the order it wrote them. */
  onMessage: (message: ToEngine) => void
  /** The Node side is gone (stdin ended, descriptor 0 still the one it was given): the engine ends. */
  onGone: () => void
  /**
   * A message could not be written on descriptor 3 (something closed it): the engine ends with
   * CHANNEL_CLOSED_EXIT_CODE (the Node side's file is made first).
   */
  onClosed: () => void
}

export type EngineChannel = {
  /** Sends a message; one that would be longer than MAX_FRAME_BYTES is replaced by `tooLarge(bytes)`. */
  send: (message: FromEngine, tooLarge?: (bytes: number) => FromEngine) => void
}

/** Opens the channel: messages sent before the secret arrives wait for it. */
export function openEngineChannel(handlers: EngineChannelHandlers): EngineChannel {
  let secret: string | undefined
  /** Hello.closedFile: made before this process ends with CHANNEL_CLOSED_EXIT_CODE. */
  let closedFile: string | undefined
  const waiting: string[] = []
  let refused = false
  // The descriptor could not be written (a tool closed it): nothing more is sent, and this process
  // ends saying so (onClosed), for a Node side that cannot see it close (another process holds it).
  let closed = false
  const check = inboundOrder()
  /** The last call read: those the Node side sent after it never reached this process. */
  let lastCall = 0
  // Descriptor 0 as the Node side gave it, before any user module loads.
  const input = identityOf(0)

  const write = (text: string) => {
    if (closed || writeAll(`{"secret":"${secret}","message":${text}}\n`)) return
    closed = true
    if (closedFile !== undefined) makeFile(closedFile)
    handlers.onClosed()
  }
  // The Node side ends the engine when it reads this; nothing else is read or written before.
  const refuse = (reason: string) => {
    write(pristineStringify({ type: "refused", reason } satisfies FromEngine))
    refused = true
  }
  const post = (text: string) => {
    if (secret === undefined) waiting.push(text)
    else if (!refused) write(text)
  }
  // Descriptor 0 is no longer the Node side's pipe (closed, or another file in its place): nothing
  // more is read from it, and the Node side is told once, before the next message.
  let deaf = false
  const inputLost = (): boolean => {
    if (deaf) return true
    if (input === undefined || sameFile(identityOf(0), input)) return false
    deaf = true
    post(pristineStringify({ type: "stdin-closed", lastCall } satisfies FromEngine))
    return true
  }

  const cutter = new LineCutter()
  readInput(
    (chunk) => {
      // What the descriptor gives now is not the Node side's: not read, and nothing more is.
      if (inputLost()) return false
      if (refused) return true
      const cut = cutter.push(chunk)
      for (const line of cut.lines) {
        if (refused) return true
        let message: unknown
        try {
          message = parse(line)
        } catch {
          message = undefined
        }
        if (secret === undefined) {
          const hello = message as { type?: unknown; secret?: unknown } | undefined
          if (
            hello?.type !== "hello" ||
            typeof hello.secret !== "string" ||
            !/^[A-Za-z0-9_-]{16,}$/.test(hello.secret)
          ) {
            // Without a secret nothing can be said: this process cannot be the Node side's engine.
            handlers.onGone()
            return false
          }
          secret = hello.secret
          if (typeof (hello as { closedFile?: unknown }).closedFile === "string")
            closedFile = (hello as { closedFile: string }).closedFile
          for (const text of waiting.splice(0)) write(text)
          continue
        }
        const problem = check(message)
        if (problem) refuse(`the engine read ${problem} on its stdin, which only the Node side writes`)
        else {
          if ((message as ToEngine).type === "call") lastCall = (message as { id: number }).id
          handlers.onMessage(message as ToEngine)
        }
      }
      if (cut.oversized !== undefined)
        refuse(
          `the engine read a line of more than ${MAX_FRAME_BYTES} bytes on its stdin, which only the Node side writes`,
        )
      return true
    },
    () => {
      // A read that failed or ended because a tool closed descriptor 0 is not the Node side going.
      if (!inputLost()) handlers.onGone()
    },
  )

  return {
    send(message, tooLarge) {
      // Bun's read of a descriptor closed under it neither fails nor ends: looked at before each message.
      inputLost()
      let text = pristineStringify(message)
      // Each UTF-16 unit is at most 3 bytes: only a long text needs its bytes counted.
      if (text.length * 3 > MAX_FRAME_BYTES - 1024 && tooLarge !== undefined) {
        const bytes = byteLength(text, "utf8")
        if (bytes > MAX_FRAME_BYTES - 1024) text = pristineStringify(tooLarge(bytes))
      }
      post(text)
    },
  }
}

// --- internal ---

// Taken before any user module loads, as values: an import of a built-in module is a live binding,
// which `module.syncBuiltinESMExports()` would point at a tool's replacement.
const read = readBinding
const writeSync = writeSyncBinding
const fstat = fstatBinding
const mkdir = mkdirBinding
const open = openBinding
const close = closeBinding
const dirname = dirnameBinding
const parse = JSON.parse
const byteLength = Buffer.byteLength
const sleepCell = new Int32Array(new SharedArrayBuffer(4))
const atomicsWait = Atomics.wait

/**
 * Writes the whole line on the engine's descriptor. The text goes as a string: Node's writeSync
 * hands a string to the system without reading any property a tool could have replaced (a Buffer
 * goes through `byteLength`). False when the descriptor is gone (closed by a tool, or the Node
 * side ended).
 */
function writeAll(line: string): boolean {
  let rest: string | Uint8Array = line
  for (;;) {
    let written: number
    try {
      written = writeSync(ENGINE_OUTPUT_FD, rest as string)
    } catch (error) {
      // Something in this process made the descriptor non-blocking: wait for the Node side to read.
      if ((error as { code?: unknown }).code === "EAGAIN") {
        atomicsWait(sleepCell, 0, 0, 1)
        continue
      }
      return false
    }
    const total = typeof rest === "string" ? byteLength(rest, "utf8") : rest.length
    if (written >= total) return true
    // A signal cut the write short: the rest, as bytes (the secret went with the first part).
    const bytes: Uint8Array = typeof rest === "string" ? Buffer.from(rest, "utf8") : rest
    rest = bytes.subarray(written)
  }
}

type FileIdentity = { dev: bigint; ino: bigint }

/**
 * Which file a descriptor is open on; undefined when it is not open. With bigint stats: Node's
 * plain fstat of a socket (the Node side's stdin) makes the next package imported be found by its
 * link instead of its folder (nodejs/node#51142, _file-stats.ts), and esbuild would then not find
 * its binary.
 */
function identityOf(fd: number): FileIdentity | undefined {
  try {
    const stats = fstat(fd, { bigint: true })
    return { dev: stats.dev, ino: stats.ino }
  } catch {
    return undefined
  }
}

function sameFile(now: FileIdentity | undefined, then: FileIdentity): boolean {
  return now !== undefined && now.dev === then.dev && now.ino === then.ino
}

/** Makes the Node side's file (Hello.closedFile), empty; this process ends right after. */
function makeFile(file: string): void {
  try {
    mkdir(dirname(file), { recursive: true, mode: 0o700 })
    close(open(file, "w", 0o600))
  } catch {
    // Not made: the Node side takes the exit for the tool's own.
  }
}

/** Reads stdin with a reader of this module's own, until it ends or `onChunk` says to stop. */
function readInput(onChunk: (chunk: Uint8Array) => boolean, onEnd: () => void): void {
  const buffer = Buffer.alloc(64 * 1024)
  const next = () =>
    read(0, buffer, 0, buffer.length, null, (error, bytesRead) => {
      if (error) {
        // A tool touched `process.stdin`, which made the pipe non-blocking: read again shortly.
        if (error.code === "EAGAIN") return void wait(2).then(next)
        return onEnd()
      }
      if (bytesRead === 0) return onEnd()
      if (onChunk(Buffer.from(buffer.subarray(0, bytesRead)))) next()
    })
  next()
}

/**
 * The order the Node side keeps: one task, or calls with ids that only grow, and aborts and client
 * answers for ids already seen. A line out of this order was not written by the Node side (a tool
 * wrote into the pipe, through `/proc/self/fd/0`).
 */
function inboundOrder(): (message: unknown) => string | undefined {
  let tasks = 0
  let lastCall = 0
  return (message) => {
    const value = message as { type?: unknown; id?: unknown } | undefined
    if (typeof value !== "object" || value === null) return "a line that is not a message"
    const id = value.id
    switch (value.type) {
      case "task":
        return ++tasks === 1 && lastCall === 0 ? undefined : "a second task"
      case "call":
        if (typeof id !== "number" || id <= lastCall || tasks > 0) return "a call out of order"
        lastCall = id
        return undefined
      case "abort":
        return typeof id === "number" && id <= lastCall ? undefined : "an abort of a call never made"
      case "client-reply":
        return typeof id === "number" ? undefined : "a client answer without an id"
      default:
        return "a message of an unknown type"
    }
  }
}
