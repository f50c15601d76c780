// Types of the Bun shell (`$`) that opencode hands to plugins. opencode runs on Bun; these
// describe the object, they do not implement it. Only plugin.ts names them: like the real
// package, no entry point exports them (users write `PluginInput["$"]`).

type ShellExpression = { toString(): string } | Array<ShellExpression> | string | { raw: string } | ReadableStream

export interface BunShell {
  (strings: TemplateStringsArray, ...expressions: ShellExpression[]): BunShellPromise
  /** Expands a bash-like brace pattern. */
  braces(pattern: string): string[]
  /** Escapes a string for use in a shell command. */
  escape(input: string): string
  /** Sets the default environment of shells made by this instance. */
  env(newEnv?: Record<string, string | undefined>): BunShell
  /** Sets the default working directory of shells made by this instance. */
  cwd(newCwd?: string): BunShell
  /** Does not throw on a non-zero exit code. */
  nothrow(): BunShell
  /** Chooses whether a non-zero exit code throws. */
  throws(shouldThrow: boolean): BunShell
}

interface BunShellPromise extends Promise<BunShellOutput> {
  readonly stdin: WritableStream
  cwd(newCwd: string): this
  env(newEnv: Record<string, string> | undefined): this
  /** Buffers the output without echoing it. */
  quiet(): this
  lines(): AsyncIterable<string>
  text(encoding?: BufferEncoding): Promise<string>
  json(): Promise<any>
  arrayBuffer(): Promise<ArrayBuffer>
  blob(): Promise<Blob>
  nothrow(): this
  throws(shouldThrow: boolean): this
}

interface BunShellOutput {
  readonly stdout: Buffer
  readonly stderr: Buffer
  readonly exitCode: number
  text(encoding?: BufferEncoding): string
  json(): any
  arrayBuffer(): ArrayBuffer
  bytes(): Uint8Array
  blob(): Blob
}
