// opencode's ascending identifiers (docs/opencode-contract.md#ascending-ids): `<prefix>_` + 12 hex
// chars + 14 base62 chars. The hex part grows with time, so ids created later sort after earlier
// ones, even within one millisecond (a counter fills the low 12 bits). The base62 tail keeps ids
// unique across processes.

/** Prefixes opencode uses for ascending ids: saved tool output, parts, sessions and messages. */
export type AscendingIdPrefix = "tool" | "prt" | "ses" | "msg"

/** Returns a new id such as `tool_22afd3213001rAc3qPyh4sFhA1`. */
export function ascendingId(prefix: AscendingIdPrefix): string {
  const now = Date.now()
  if (now !== lastMillisecond) {
    lastMillisecond = now
    counter = 0
  }
  counter += 1
  return `${prefix}_${timeHex(now, counter)}${randomBase62(randomLength)}`
}

// --- internal ---

const base62Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const randomLength = 14

let lastMillisecond = 0
let counter = 0

/** 2^36 and 2^48: the stamp is milliseconds * 2^12 + counter, and the id keeps its 6 low bytes. */
const MILLISECONDS_KEPT = 2 ** 36
const STAMP_KEPT = 2 ** 48

/**
 * The 6 low bytes of `now * 0x1000 + counter`, big-endian, as 12 lowercase hex chars. In plain
 * numbers, every step exact (all below 2^53): BigInt arithmetic cost a Bun engine about 0.1 ms of
 * every call, for the three ids a call makes.
 */
function timeHex(now: number, count: number): string {
  const stamp = ((now % MILLISECONDS_KEPT) * 0x1000 + count) % STAMP_KEPT
  return stamp.toString(16).padStart(12, "0")
}

/**
 * Each char is `byte % 62` of a random byte, like opencode (slightly biased, by design). The bytes
 * come from Math.random: the ids need to be unique, not unguessable, and loading node:crypto costs
 * a worker thread 5-7 ms on the way to every tool call.
 */
function randomBase62(length: number): string {
  let text = ""
  for (let index = 0; index < length; index++) text += base62Alphabet[Math.floor(Math.random() * 256) % 62]
  return text
}
