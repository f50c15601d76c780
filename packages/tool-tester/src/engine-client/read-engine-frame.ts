// What the Node side believes of a line the engine's process wrote on its channel: only a message
// of a known shape that carries the run's secret. Anything else was written by something else in
// that process (a tool, a process it started, a library it loaded), since the engine writes only
// such lines: the caller ends the engine with CHANNEL_FORGED. The checks are written out here, not
// with zod: the CLI starts an engine before it loads anything else (cli/main.ts), and loading zod
// there would delay every run's start for twelve flat shapes.
import { timingSafeEqual } from "node:crypto"
import { isRecord } from "../_is-record.ts"
import type { FromEngine } from "./protocol.ts"

export type ReadFrame = { message: FromEngine } | { problem: string }

export function readEngineFrame(line: string, secret: Buffer): ReadFrame {
  let frame: unknown
  try {
    frame = JSON.parse(line)
  } catch {
    return { problem: `a line that is not JSON (${preview(line)})` }
  }
  if (!isRecord(frame) || typeof frame["secret"] !== "string")
    return { problem: `a message without the run's secret (${preview(line)})` }
  const given = Buffer.from(frame["secret"], "utf8")
  if (given.length !== secret.length || !timingSafeEqual(given, secret))
    return { problem: `a message with a wrong secret (${preview(line)})` }
  const message = frame["message"]
  if (!isRecord(message) || !hasShape(message)) return { problem: `a message of an unknown shape (${preview(line)})` }
  return { message: message as FromEngine }
}

// --- internal ---

type Check = (value: unknown) => boolean

const text: Check = (value) => typeof value === "string"
const id: Check = (value) => typeof value === "number" && Number.isSafeInteger(value) && value > 0
const record: Check = (value) => isRecord(value)
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value)
const crossingError: Check = (value) =>
  isRecord(value) && text(value["code"]) && text(value["message"]) && optional(record)(value["data"])
const engineInfo: Check = (value) =>
  isRecord(value) &&
  (value["name"] === "bun" || value["name"] === "node") &&
  text(value["version"]) &&
  text(value["binary"])
const trueIfGiven: Check = (value) => value === undefined || value === true
const reached: Check = (value) => value === undefined || (isRecord(value) && text(value["name"]) && text(value["id"]))

/** The keys of each message type and what each holds (protocol.ts FromEngine). */
const SHAPES: Record<string, Record<string, Check>> = {
  ready: { engine: engineInfo },
  loading: { file: text, init: optional(text) },
  loaded: { reached },
  modules: { files: (value) => Array.isArray(value) && value.every(text) },
  done: { payload: text, unflushed: trueIfGiven },
  failed: { error: crossingError, unflushed: trueIfGiven },
  "server-log": { line: text },
  client: { id, method: text, args: text },
  refused: { reason: text },
  "stdin-closed": { lastCall: (value) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0 },
  unstopped: { id, name: text, graceMs: id },
}

function hasShape(message: Record<string, unknown>): boolean {
  const type = message["type"]
  if (type === "reply") {
    // A reply carries a value or an error, never both.
    const keys = Object.keys(message).length
    if ("value" in message) return keys === 3 && id(message["id"]) && text(message["value"])
    return keys === 3 && id(message["id"]) && crossingError(message["error"])
  }
  if (typeof type !== "string" || !Object.hasOwn(SHAPES, type)) return false
  const shape = SHAPES[type]!
  for (const key of Object.keys(message)) if (key !== "type" && !Object.hasOwn(shape, key)) return false
  for (const [key, check] of Object.entries(shape)) if (!check(message[key])) return false
  return true
}

/** The start of a line, for the message: enough to recognise it, never a secret of the engine's. */
function preview(line: string): string {
  const start = line.slice(0, 80).replace(/[^\x20-\x7e]/g, "?")
  return line.length > 80 ? `${JSON.stringify(start)}...` : JSON.stringify(start)
}
