// Bun.spawn for the engine's process, with its IPC messages and its exit kept until a listener
// comes. The CLI that bin.js's launcher starts in Bun starts its engine this way before the rest
// of the CLI has loaded (cli/bun-early.ts), and spawn-engine.ts adopts it once it has. No runtime
// imports: this runs before anything else is loaded.

/** The part of Bun's API used here (the package's types are Node's). */
export type BunSubprocess = {
  pid: number
  stdout: unknown
  stderr: unknown
  send(message: unknown): void
  ref(): void
  unref(): void
  kill(signal: string): void
  disconnect(): void
}

export type BunSpawnListener = {
  message(message: unknown): void
  exit(exitCode: number | null, signal: NodeJS.Signals | null): void
}

export type BunSpawn = {
  /** Undefined when Bun could not start the binary: then `error` says why. */
  subprocess: BunSubprocess | undefined
  error: Error | undefined
  /** Sets the listener, first handing it what came before. */
  listen(listener: BunSpawnListener): void
}

export type BunSpawnOptions = {
  cwd: string
  env: Record<string, string | undefined>
  console: "pipe" | "inherit"
}

/** Starts `binary entry` as a process group of its own, with a JSON IPC channel. */
export function spawnInBun(binary: string, entry: string, options: BunSpawnOptions): BunSpawn {
  const pending: Array<(listener: BunSpawnListener) => void> = []
  let current: BunSpawnListener | undefined
  const deliver = (event: (listener: BunSpawnListener) => void) => (current ? event(current) : pending.push(event))
  let subprocess: BunSubprocess | undefined
  let error: Error | undefined
  try {
    subprocess = Bun.spawn([binary, entry], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", options.console, options.console],
      serialization: "json",
      detached: true,
      ipc: (message) => deliver((listener) => listener.message(message)),
      onExit: (_subprocess, exitCode, signal) => deliver((listener) => listener.exit(exitCode, signal)),
    })
  } catch (thrown) {
    error = thrown instanceof Error ? thrown : new Error(String(thrown))
  }
  return {
    subprocess,
    error,
    listen: (listener) => {
      current = listener
      for (const event of pending.splice(0)) event(listener)
    },
  }
}

declare const Bun: {
  spawn(
    command: string[],
    options: {
      cwd: string
      env: Record<string, string | undefined>
      stdio: [string, string, string]
      serialization: "json"
      detached: boolean
      ipc: (message: unknown) => void
      onExit: (subprocess: BunSubprocess, exitCode: number | null, signal: NodeJS.Signals | null) => void
    },
  ): BunSubprocess
}
