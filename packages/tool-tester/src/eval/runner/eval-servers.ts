// The opencode server the trials run on, and its end. A tool a case runs for real (its `execute`)
// runs inside opencode's own process, so a tool that ends its process (process.exit, a kill) ends
// opencode: every request after that failed with "fetch failed", for every later trial. So the
// runner watches the server's process: when it ends by itself, what was running then is recorded
// (opencode-exit.ts says it), and the next trial gets a new server, started as the first was (same
// project copy, homes and config). One that does not start again fails the trials after it.

import type { RunningServer, ServerExit } from "../../opencode/opencode-server.ts"
import { serverApi, type ServerApi } from "./server-api.ts"
import { watchServer } from "./server-watch.ts"
import type { TrialSession } from "./trial.ts"

/** A trial in flight on a server: which one, and the tools it ran for real. */
export interface InFlight {
  case: string
  model: string
  run: number
  arm?: string
  ranForReal: Set<string>
}

/** A server that ended by itself: how, the trials in flight then, and what came after it. */
export interface EndedServer {
  exit: ServerExit
  during: InFlight[]
  /** Trials in flight then that were run again (they ran no tool for real, another trial did). */
  rerun: number
  /** The server started for the trials after it: started, or why it did not. */
  next?: { started: true } | { started: false; reason: string }
}

/** A running server's routes, the trials in flight on it, and its end once it ended by itself. */
export interface LiveServer {
  api: ServerApi
  inFlight: Set<InFlight>
  ended(): EndedServer | undefined
  /**
   * Its end, after a request of a trial failed: at once when it is known, else when the server
   * does not answer and its process ends within a few seconds (Node reports the end a moment after
   * its connections closed); undefined when it answers.
   */
  endedAfterFailure(): Promise<EndedServer | undefined>
}

export interface EvalServers {
  /** The server the next trial runs on: the current one, or a new one when it ended by itself. */
  current(): Promise<LiveServer>
  /** The servers that ended by themselves, in order. */
  readonly ends: readonly EndedServer[]
  stop(): void
}

/** Starts the first server (its start's error is thrown as it is); `start` starts each later one too. */
export async function startEvalServers(options: {
  start: () => Promise<RunningServer>
  /** Before a new server starts: ends what the ended one left running. */
  beforeRestart: () => void
  directory: string
  sessions: Map<string, TrialSession>
}): Promise<EvalServers> {
  const ends: EndedServer[] = []
  let stopped = false
  let stopCurrent = () => {}
  const live = (server: RunningServer): LiveServer => {
    const api = serverApi(server, options.directory)
    const watch = watchServer(api, options.sessions)
    const inFlight = new Set<InFlight>()
    let end: EndedServer | undefined
    const ended = server.exited.then((exit) => {
      watch.stop()
      server.stop()
      if (stopped) return undefined
      end = { exit, during: [...inFlight], rerun: 0 }
      ends.push(end)
      return end
    })
    stopCurrent = () => {
      watch.stop()
      server.stop()
    }
    return {
      api,
      inFlight,
      ended: () => end,
      endedAfterFailure: async () => {
        if (end !== undefined) return end
        const answers = await api
          .get("/global/health", AbortSignal.timeout(restartWaitMs))
          .then(() => true)
          .catch(() => false)
        if (answers) return end
        return Promise.race([ended, delay(restartWaitMs).then(() => end)])
      },
    }
  }
  let current = live(await options.start())
  let restart: Promise<LiveServer> | undefined
  return {
    ends,
    current: () => {
      const end = current.ended()
      if (end === undefined) return Promise.resolve(current)
      restart ??= (async () => {
        options.beforeRestart()
        try {
          const started = await options.start()
          // The eval ended meanwhile: nothing it started may outlive it.
          if (stopped) {
            started.stop()
            throw new Error("the eval ended")
          }
          current = live(started)
          end.next = { started: true }
          return current
        } catch (error) {
          end.next = { started: false, reason: (error as Error).message }
          throw error
        } finally {
          // A failed start is not tried again: every later trial fails with its reason.
          if (end.next?.started) restart = undefined
        }
      })()
      return restart
    },
    stop: () => {
      stopped = true
      stopCurrent()
    },
  }
}

// --- internal ---

/** How long a server that does not answer may take to be reported ended. */
const restartWaitMs = 5000

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
