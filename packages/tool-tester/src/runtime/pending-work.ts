// What a call leaves behind that could still throw after it returned: a timer or an immediate that
// has not run yet, and under Node any other async resource still open (a file read, a socket, a
// child process). A call that leaves nothing behind cannot have an error escape later from its own
// work, so its result needs no wait for one (docs/opencode-contract.md#escaped-errors); one that
// does waits as before (settle.ts).
//
// The tools are untrusted and share this runtime's globals: they may replace setTimeout, Promise,
// Array.prototype or WeakMap.prototype in the middle of a call. So nothing here calls a built-in
// the tool can reach: the functions are captured at load (before any tool file is imported; the
// hosts import this through _pristine.ts first) and called through a captured Reflect.apply, and
// the bookkeeping lives on objects without a prototype. Any doubt counts as work left behind (a
// wait), never as nothing left.
//
// - Node: an async_hooks hook, on while some call is watched, sees every async resource created,
//   whichever way it was (node:timers, timers/promises, fs, net, an unref'd timer), and when each
//   ends. Promises are not resources of their own here: one settles only through a resource, a
//   microtask (the turn every call waits, settle.ts) or another promise.
// - Bun: its async_hooks and getActiveResourcesInfo() see nothing, so the timer functions are
//   wrapped, once, before any tool loads: setTimeout, setInterval, setImmediate and their clear*
//   (global and node:timers, whose named exports Bun copies at their first import), the
//   timers/promises ones and Bun.sleep. Bun's other async work (I/O callbacks) is not seen: see the
//   contract for what the CLI does about that.

import { createHook } from "node:async_hooks"
import { createRequire } from "node:module"

/**
 * A call being watched: how many of the resources created while it ran are still open, and how
 * many of those are one-shot requests (Node: a file read, a DNS lookup, a write), which always end.
 */
type Watch = { open: number; requests: number }
/** The watches that were running when a resource was created (keys: watch numbers). */
type Owners = Record<number, Watch>

const apply = Reflect.apply
const now = Date.now
const PristinePromise = Promise
const create = Object.create as <T>(prototype: null) => T
const isBun = typeof process.versions.bun === "string"

/** The watches running now, by number. */
const active = create<Owners>(null)
let activeCount = 0
let nextWatch = 1

/**
 * Starts watching what the calls running leave behind; `stop()` says whether something this call
 * (or another running with it) created is still pending: a timer, an immediate, an open resource.
 */
export function watchPendingWork(): { stop(): boolean; requestsEnded(boundMs: number): Promise<void> } {
  const key = nextWatch++
  const watch = create<Watch>(null)
  watch.open = 0
  watch.requests = 0
  active[key] = watch
  activeCount++
  if (activeCount === 1) hook?.on()
  let stopped = false
  return {
    stop() {
      if (!stopped) {
        stopped = true
        delete active[key]
        activeCount--
        if (activeCount === 0) hook?.off()
      }
      return watch.open > 0
    },
    // A request's callback runs when the request ends, whenever the thread pool gets to it: on a
    // loaded machine a file read outlives any fixed wait, and its escape would be listed on the
    // next call. So a call that left one waits for it (checked each millisecond, at most boundMs).
    async requestsEnded(boundMs) {
      const until = apply(now, Date, []) + boundMs
      while (!stopped && watch.requests > 0 && apply(now, Date, []) < until) await wait(1)
    },
  }
}

const originalSetTimeout: typeof setTimeout = setTimeout
const originalSetImmediate: typeof setImmediate = setImmediate
/** Set while this module's own waits are created: not work of the calls. */
let ours = false

/** Resolves after `milliseconds` (none: after the current turn of the event loop), as no call's work. */
export function wait(milliseconds?: number): Promise<void> {
  return new PristinePromise((resolve) => {
    ours = true
    try {
      if (milliseconds === undefined) originalSetImmediate(resolve)
      else originalSetTimeout(resolve, milliseconds)
    } finally {
      ours = false
    }
  })
}

// --- internal ---

/** The watches running now: each counts one more open resource. */
function opened(): Owners {
  const owners = create<Owners>(null)
  for (const key in active) {
    const watch = active[key]!
    owners[key as unknown as number] = watch
    watch.open++
  }
  return owners
}

function closed(owners: Owners, request = false): void {
  for (const key in owners) {
    const watch = owners[key as unknown as number]!
    watch.open--
    if (request) watch.requests--
  }
}

/** Node's one-shot request resources (FSREQCALLBACK, GETADDRINFOREQWRAP, QUERYWRAP, WRITEWRAP, ...). */
function isRequest(type: string): boolean {
  return type.includes("REQ") || type === "QUERYWRAP" || type === "WRITEWRAP" || type === "SHUTDOWNWRAP"
}

const hook = isBun ? undefined : nodeHook()

/** Node: every async resource but promises, from its creation to its end (destroy). */
function nodeHook(): { on(): void; off(): void } {
  let alive = create<Record<number, Owners>>(null)
  let requests = create<Record<number, true>>(null)
  const created = createHook({
    init(asyncId, type) {
      if (type === "PROMISE" || activeCount === 0 || ours) return
      const owners = opened()
      alive[asyncId] = owners
      if (isRequest(type)) {
        requests[asyncId] = true
        for (const key in owners) owners[key as unknown as number]!.requests++
      }
    },
    destroy(asyncId) {
      const owners = alive[asyncId]
      if (owners === undefined) return
      delete alive[asyncId]
      const request = requests[asyncId] === true
      if (request) delete requests[asyncId]
      closed(owners, request)
    },
  })
  const enable = created.enable.bind(created)
  const disable = created.disable.bind(created)
  return {
    on: () => void enable(),
    off: () => {
      disable()
      // No watch is left to ask about them.
      alive = create<Record<number, Owners>>(null)
      requests = create<Record<number, true>>(null)
    },
  }
}

if (isBun) wrapBunTimers()

/** Bun: the timer functions, wrapped in place so that tools (imported later) only ever get the wrappers. */
function wrapBunTimers(): void {
  const require = createRequire(import.meta.url)
  const timers = require("node:timers") as Record<string, unknown>
  const timerPromises = require("node:timers/promises") as Record<string, unknown>
  const weakGet = WeakMap.prototype.get
  const weakSet = WeakMap.prototype.set
  const weakDelete = WeakMap.prototype.delete
  const then = Promise.prototype.then
  /** Each timer created during a watch, with its owners, until it runs or is cleared. */
  const pending = new WeakMap<object, Owners>()
  const track = (timer: unknown, owners: Owners) => {
    if ((typeof timer === "object" && timer !== null) || typeof timer === "function")
      apply(weakSet, pending, [timer, owners])
  }
  const settle = (timer: unknown) => {
    if ((typeof timer !== "object" || timer === null) && typeof timer !== "function") return
    const owners = apply(weakGet, pending, [timer]) as Owners | undefined
    if (owners === undefined) return
    apply(weakDelete, pending, [timer])
    closed(owners)
  }

  const scheduling = (original: (...args: unknown[]) => unknown, repeats: boolean) =>
    function (this: unknown, ...args: unknown[]): unknown {
      // Arguments pass as they came (no spread: a tool may have replaced the array iterator).
      const callback = args[0]
      if (activeCount === 0) return apply(original, this, args)
      const owners = opened()
      // Not a function (code in a string): followed no further, so pending for good.
      if (typeof callback !== "function") return apply(original, this, args)
      let timer: unknown
      args[0] = function (this: unknown, ...callbackArgs: unknown[]): unknown {
        // Ran: no longer pending (an interval stays pending until it is cleared).
        if (!repeats) settle(timer)
        return apply(callback, this, callbackArgs)
      }
      try {
        timer = apply(original, this, args)
      } catch (error) {
        closed(owners)
        throw error
      }
      track(timer, owners)
      return timer
    }
  const clearing = (original: (...args: unknown[]) => unknown) =>
    function (this: unknown, timer: unknown): unknown {
      settle(timer)
      return apply(original, this, [timer])
    }
  /** A promise-returning wait: pending until it settles. */
  const waiting = (original: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const result = apply(original, this, args)
      if (activeCount === 0) return result
      const owners = opened()
      return apply(then, result, [
        (value: unknown) => {
          closed(owners)
          return value
        },
        (error: unknown) => {
          closed(owners)
          throw error
        },
      ])
    }
  /** Work this module cannot follow to its end (an async iterator of ticks): pending for good. */
  const unfollowed = (original: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]): unknown {
      if (activeCount > 0) opened()
      return apply(original, this, args)
    }

  const replaced = new Map<unknown, unknown>()
  const wrap = (
    owner: Record<string, unknown>,
    name: string,
    wrapper: (original: (...args: unknown[]) => unknown) => unknown,
  ) => {
    const original = owner[name]
    if (typeof original !== "function") return
    // The global and node:timers hold the same functions: one wrapper for both.
    if (!replaced.has(original)) replaced.set(original, wrapper(original as (...args: unknown[]) => unknown))
    owner[name] = replaced.get(original)
  }
  const global = globalThis as unknown as Record<string, unknown>
  for (const owner of [global, timers]) {
    wrap(owner, "setTimeout", (original) => scheduling(original, false))
    wrap(owner, "setImmediate", (original) => scheduling(original, false))
    wrap(owner, "setInterval", (original) => scheduling(original, true))
    for (const name of ["clearTimeout", "clearInterval", "clearImmediate"]) wrap(owner, name, clearing)
  }
  wrap(timerPromises, "setTimeout", waiting)
  wrap(timerPromises, "setImmediate", waiting)
  wrap(timerPromises, "setInterval", unfollowed)
  const scheduler = timerPromises["scheduler"]
  if (typeof scheduler === "object" && scheduler !== null) wrap(scheduler as Record<string, unknown>, "wait", waiting)
  wrap(global["Bun"] as Record<string, unknown>, "sleep", waiting)

  // A timer that already ran can be started again (refresh): pending again.
  const probe = originalSetTimeout(() => {}, 0) as unknown as Record<string, unknown>
  const timerPrototype = Object.getPrototypeOf(probe) as Record<string, unknown>
  clearTimeout(probe as never)
  const refresh = timerPrototype["refresh"]
  if (typeof refresh === "function") {
    timerPrototype["refresh"] = function (this: unknown): unknown {
      if (activeCount > 0 && apply(weakGet, pending, [this]) === undefined) track(this, opened())
      return apply(refresh, this, [])
    }
  }
}
