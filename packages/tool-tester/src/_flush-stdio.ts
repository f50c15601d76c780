// Waiting until what this process wrote to stdout and stderr is handed to the system: before the
// CLI exits, and before an engine answers (what a tool printed must be in the pipes before the
// answer that ends the engine). Node's `drain` says so; Bun keeps what a full pipe cannot take in
// memory and says so only when the stream is ended (nothing is printed after this in either case).
//
// In an engine the streams are the tools' too: a tool may stub `end`, define `writableLength` or
// `writableFinished` on the stream, or replace the iterators and Promise helpers. So what is used
// here is taken when this module loads (before any tool file is imported): the stream methods and
// getters as the prototypes had them, called through a captured Reflect.apply, and no iteration.
// What a tool can still reach (the stream's internal state, its `emit`) is covered by the bound
// the engine passes: past it, the answer is sent anyway.

/**
 * Resolves once stdout and stderr have handed everything to the system (true), or after `withinMs`
 * when given (false: an engine, whose answer must be sent whatever a tool did to the streams; what
 * was not handed over yet still is while the process lives).
 */
export function flushStdio(withinMs?: number): Promise<boolean> {
  return new PristinePromise<boolean>((resolve) => {
    let left = streams.length
    let timer: ReturnType<typeof setTimeout> | undefined
    const finish = (all: boolean) => {
      if (left === -1) return
      left = -1
      if (timer !== undefined) apply(clearTimer, undefined, [timer])
      resolve(all)
    }
    if (withinMs !== undefined) timer = apply(setTimer, undefined, [() => finish(false), withinMs]) as typeof timer
    for (let index = 0; index < streams.length; index++) {
      let settled = false
      flushed(streams[index]!, () => {
        if (settled) return
        settled = true
        if (left > 0 && --left === 0) finish(true)
      })
    }
  })
}

// --- internal ---

type Getter = (this: unknown) => unknown
type Method = (this: unknown, ...args: unknown[]) => unknown

/** A stream with what is used of it, as it was when this module loaded. */
type Taken = {
  stream: NodeJS.WriteStream
  on: Method | undefined
  end: Method | undefined
  destroyed: Getter | undefined
  writableFinished: Getter | undefined
  writableLength: Getter | undefined
  /** Seen to close. */
  closed: boolean
}

const apply = Reflect.apply
const describe = Object.getOwnPropertyDescriptor
const prototypeOf = Object.getPrototypeOf
const PristinePromise = Promise
const setTimer = setTimeout
const clearTimer = clearTimeout
const isBun = typeof process.versions.bun === "string"

const streams: Taken[] = [take(process.stdout), take(process.stderr)]

// A stream a tool destroyed takes nothing more and says nothing more: waiting for it would never
// end. Bun says `destroyed` only for a moment (then false again, and `end()` never finishes), so
// its `close` is watched from the start.
for (let index = 0; index < streams.length; index++) {
  const taken = streams[index]!
  listen(taken, "close", () => {
    taken.closed = true
  })
}

function take(stream: NodeJS.WriteStream): Taken {
  return {
    stream,
    on: method(stream, "on"),
    end: method(stream, "end"),
    destroyed: getter(stream, "destroyed"),
    writableFinished: getter(stream, "writableFinished"),
    writableLength: getter(stream, "writableLength"),
    closed: false,
  }
}

/** Where `key` is found on `object` or its prototypes, now. */
function lookUp(object: object, key: string): PropertyDescriptor | undefined {
  for (let owner: object | null = object; owner !== null; owner = prototypeOf(owner) as object | null) {
    const descriptor = describe(owner, key)
    if (descriptor !== undefined) return descriptor
  }
  return undefined
}

function method(stream: object, key: string): Method | undefined {
  const value = lookUp(stream, key)?.value
  return typeof value === "function" ? (value as Method) : undefined
}

function getter(stream: object, key: string): Getter | undefined {
  const descriptor = lookUp(stream, key)
  if (descriptor?.get !== undefined) return descriptor.get as Getter
  // A plain value (no runtime seen has one): read off the stream when asked.
  return descriptor === undefined ? undefined : () => (stream as unknown as Record<string, unknown>)[key]
}

function read(taken: Taken, key: "destroyed" | "writableFinished" | "writableLength"): unknown {
  const get = taken[key]
  return get === undefined ? undefined : apply(get, taken.stream, [])
}

function listen(taken: Taken, event: string, listener: () => void): void {
  if (taken.on !== undefined) apply(taken.on, taken.stream, [event, listener])
}

function flushed(taken: Taken, done: () => void): void {
  try {
    if (taken.closed || read(taken, "destroyed") === true) {
      done()
      return
    }
    listen(taken, "error", done)
    listen(taken, "close", done)
    if (isBun) {
      if (read(taken, "writableFinished") === true || taken.end === undefined) {
        done()
        return
      }
      listen(taken, "finish", done)
      apply(taken.end, taken.stream, [])
      return
    }
    if (read(taken, "writableLength") === 0) done()
    else listen(taken, "drain", done)
  } catch {
    // A stream this process cannot ask any more (a tool broke its state): nothing to wait for.
    done()
  }
}
