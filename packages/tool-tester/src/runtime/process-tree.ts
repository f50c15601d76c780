// Ending what a tool started, on every platform opencode runs on (docs/cli.md, "Processes a tool
// leaves behind"). Two questions, one place:
//   endProcessTree(pid)  end a process and all it started (the bun engine, an opencode run);
// POSIX: the process group the process leads (it must be started detached), plus on Linux every
// descendant still linked to it (one that left the group with setsid). The process table comes
// from /proc on Linux (no process started), `ps -A -o pid=,ppid=` elsewhere on POSIX (macOS), and
// PowerShell's Win32_Process on Windows, where `taskkill /T /F` ends a tree. node:child_process is
// loaded only when a command is run: the bun engine imports this module, and in Bun loading it
// costs time on every start.
//   endMarked(mark)      end every process whose environment holds the engine's mark
//                        (ENGINE_MARK=<id>): a child that left the group and lost its parent
//                        (`sleep &` in a shell, `setsid`, `detached` + `unref()`) still inherited
//                        the environment. Read from /proc/<pid>/environ on Linux and `ps -E` on
//                        macOS (`ps -e` on the BSDs); Windows has no such listing (its children keep their parent's id
//                        instead, which `taskkill /T` follows). Read again until a reading shows
//                        none was left running: one that forks and exits in a loop is chased down.
//                        It cannot see a process started with an environment of its own that
//                        leaves the mark out, one that wrote over the memory its environment came
//                        in (what both listings read: Perl's `$0 = ...`, setproctitle), or one
//                        handed to a service outside this user's processes (systemd-run, launchd,
//                        at, ssh).
// Hand-written on purpose (measured against tree-kill 1.2.2, the library for the job): it only
// calls back (the exit handler and the reaper must end trees synchronously), starts one
// `pgrep -P`/`ps --ppid` per process of the tree and a shell for `taskkill`, and knows neither
// process groups nor an environment mark, so a child that left with setsid survives it.
import { readdirSync, readFileSync } from "node:fs"
import { programOutputSync } from "./start-program.ts"

/** Where the process table is read from: each platform's default, or one forced (tests). */
export type ProcessTableSource = "proc" | "ps" | "powershell"

/** One row of the process table; `started` (Windows) orders a parent and its child. */
export type ProcessEntry = { pid: number; ppid: number; started?: number }

export type ProcessTreeOptions = {
  /** Read the process table from here rather than from the platform's default. */
  source?: ProcessTableSource
  platform?: NodeJS.Platform
}

/**
 * Ends `pid` and every process it started, at once (SIGKILL; on Windows `taskkill /T /F`, and
 * `pid` alone where taskkill fails). Never throws.
 */
export function endProcessTree(pid: number, options: ProcessTreeOptions = {}): void {
  if (!Number.isInteger(pid) || pid <= 0) return
  const platform = options.platform ?? process.platform
  if (platform === "win32") {
    const killed = programOutputSync("taskkill", ["/T", "/F", "/PID", String(pid)], {
      stdio: "ignore",
      timeout: 15_000,
    })
    // taskkill missing, refusing (Wine's own rejects /T) or past its bound: the process itself is
    // still ended (TerminateProcess), so nothing waits on it, though what it started may go on.
    // Not after 128, taskkill's "no such process": its id may already be another's.
    if (killed.status !== 0 && killed.status !== 128) signal(pid)
    return
  }
  // Read before the group goes: once a parent is gone its children are re-parented, out of reach.
  const below = descendantsOf(pid, readTable(options))
  // The ones that left the group first: when `pid` is this process, the group's signal ends it.
  for (const child of below) signal(child)
  signal(-pid)
  signal(pid)
}

/** The environment variable every process an engine starts inherits, naming that engine. */
export const ENGINE_MARK = "TOOL_TESTER_ENGINE_MARK"

/**
 * Ends every process (but this one) whose environment has ENGINE_MARK=`mark`; returns their ids.
 * Synchronous (exit handlers and the reaper call it); never throws.
 *
 * One look at the table is not enough: the table is listed first and each environment read after,
 * and a process may start a child and exit in between (one that forks, calls setsid and exits in a
 * loop does nothing else): its environment is gone when read, and its child is in no list. So a
 * marked process is sent SIGKILL the moment it is read (on Linux newest first: soonest after the
 * listing), and the table is looked at again until a look shows that nothing marked ran when it
 * was listed: it found no marked process, and each process it could not read (one ending as it
 * was looked at) had been read without the mark, or could not be read either, by the look before,
 * so whatever it started is in this look's listing, and was read. Each marked process found is
 * sent SIGKILL again if seen again. Bounded by MARKED_PASSES looks and MARKED_TIME_MS.
 * SIGKILL at once, not SIGSTOP first and SIGKILL at the end: on Linux a fork under way when SIGKILL
 * comes is abandoned, one under way when SIGSTOP comes completes; and should this process die
 * halfway, nothing is left stopped forever.
 */
export function endMarked(mark: string, options: ProcessTreeOptions = {}): number[] {
  const platform = options.platform ?? process.platform
  // Windows has no listing of other processes' environments (taskkill /T follows its trees).
  if (platform === "win32") return []
  const entry = `${ENGINE_MARK}=${mark}`
  const inProc = (options.source ?? (platform === "linux" ? "proc" : "ps")) === "proc"
  const ended = new Set<number>()
  const until = performance.now() + MARKED_TIME_MS
  let before: MarkedLook | undefined
  for (let pass = 0; pass < MARKED_PASSES; pass++) {
    const look = inProc ? lookInProc(entry) : lookWithPs(entry, platform)
    for (const pid of look.marked) ended.add(pid)
    // Settled: each process this look could not read was read without the mark, or could not be
    // read either, by the look before; what it started since then is in this look's listing.
    const settled = [...look.unread].every((pid) => before?.unmarked.has(pid) || before?.unread.has(pid))
    if ((look.marked.length === 0 && settled) || performance.now() > until) break
    before = look
  }
  return [...ended]
}

/** The processes whose environment has ENGINE_MARK=`mark` (empty where that cannot be read: Windows). */
export function markedProcesses(mark: string, options: ProcessTreeOptions = {}): number[] {
  return processesWithEnvironment([`${ENGINE_MARK}=${mark}`], { ...options, exact: true })
}

/**
 * The processes (but this one) whose environment has every one of `entries` (`KEY=value`; with
 * `exact: false`, `KEY=start of value`): empty where environments cannot be read (Windows). What
 * tests use to see what a run left running, on each platform the way endMarked looks.
 */
export function processesWithEnvironment(
  entries: readonly string[],
  options: ProcessTreeOptions & { exact?: boolean } = {},
): number[] {
  const platform = options.platform ?? process.platform
  const exact = options.exact ?? false
  if (platform === "win32" || entries.length === 0) return []
  if ((options.source ?? (platform === "linux" ? "proc" : "ps")) === "proc")
    return withEnvironmentInProc(entries, exact)
  // Each process's environment after its command, uncut (`-ww`): `-E` on macOS, `-e` on the BSDs,
  // the `e` modifier for Linux's procps. Entries are separated by spaces there.
  const environment = platform === "darwin" ? ["-E"] : platform === "linux" ? [] : ["-e"]
  const args = ["-A", "-ww", ...environment, "-o", "pid=,command=", ...(platform === "linux" ? ["e"] : [])]
  const found: number[] = []
  for (const line of run("ps", args).split("\n")) {
    if (!entries.every((entry) => hasEntry(line, " ", entry, exact))) continue
    const pid = Number(line.trim().split(/\s+/)[0])
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) found.push(pid)
  }
  return found
}

/** Ends a process group (POSIX; nothing on Windows, which has none). Never throws. */
export function endProcessGroup(id: number, options: ProcessTreeOptions = {}): void {
  if (!Number.isInteger(id) || id <= 0 || (options.platform ?? process.platform) === "win32") return
  signal(-id)
}

/**
 * Ends what is left of the group a child of this process led, once this process has seen it exit
 * (and so reaped it: its id is free again). While a member lives, the group keeps the id and no
 * process can be given it; a process that has the id therefore got it after the group emptied,
 * and that group is another's: left alone. Never throws.
 */
export function endGroupOfExited(id: number, options: ProcessTreeOptions = {}): void {
  if (!Number.isInteger(id) || id <= 0 || isAlive(id)) return
  endProcessGroup(id, options)
}

/**
 * Every process below `root` in `table`, parents before their children. Windows keeps a dead
 * parent's id in its children and gives ids out again, so `started` (when the table has it) orders
 * each parent and child: a "child" older than its parent was started by an earlier holder of the
 * parent's id.
 */
export function descendantsOf(root: number, table: readonly ProcessEntry[]): number[] {
  const children = new Map<number, ProcessEntry[]>()
  const byPid = new Map<number, ProcessEntry>()
  for (const entry of table) {
    byPid.set(entry.pid, entry)
    if (entry.pid === entry.ppid) continue
    const list = children.get(entry.ppid) ?? []
    list.push(entry)
    children.set(entry.ppid, list)
  }
  const found: number[] = []
  const seen = new Set<number>([root])
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift()!
    const isChild = parentChildTest(byPid.get(parent)?.started)
    for (const child of children.get(parent) ?? []) {
      if (seen.has(child.pid) || !isChild(child.started)) continue
      seen.add(child.pid)
      found.push(child.pid)
      queue.push(child.pid)
    }
  }
  return found
}

/** A child (started at the time given) of a parent still holding its id, started at `parentStarted`. */
function parentChildTest(parentStarted: number | undefined): (started: number | undefined) => boolean {
  return (started) => parentStarted === undefined || started === undefined || started >= parentStarted
}

/** Rows of "pid ppid [started]" (what `ps -A -o pid=,ppid=` and the PowerShell listing print). */
export function parseProcessTable(text: string): ProcessEntry[] {
  const table: ProcessEntry[] = []
  for (const line of text.split("\n")) {
    const [pid, ppid, started] = line.trim().split(/\s+/).map(Number)
    if (!Number.isInteger(pid) || !Number.isInteger(ppid)) continue
    table.push(
      started === undefined || !Number.isFinite(started)
        ? { pid: pid!, ppid: ppid! }
        : { pid: pid!, ppid: ppid!, started },
    )
  }
  return table
}

/** The process table, from `source` or the platform's default; empty when it cannot be read. */
export function readTable(options: ProcessTreeOptions = {}): ProcessEntry[] {
  const platform = options.platform ?? process.platform
  const source = options.source ?? (platform === "linux" ? "proc" : platform === "win32" ? "powershell" : "ps")
  switch (source) {
    case "proc":
      return fromProc()
    case "ps":
      return parseProcessTable(run("ps", ["-A", "-o", "pid=,ppid="]))
    case "powershell":
      return parseProcessTable(
        run("powershell.exe", ["-NoProfile", "-NonInteractive", "-EncodedCommand", encodePowerShell(LIST_PROCESSES)]),
      )
  }
}

// --- internal ---

/** At most this many looks at the table, and this long, for one endMarked. */
const MARKED_PASSES = 2_000
const MARKED_TIME_MS = 5_000

/**
 * One look of endMarked: the marked processes found (each sent SIGKILL as it was found), those
 * read without the mark, and those whose environment could not be read because they were ending
 * (or had ended) by then.
 */
type MarkedLook = { marked: number[]; unmarked: Set<number>; unread: Set<number> }

/** Flags in /proc/<pid>/stat (include/linux/sched.h): a process that has begun to exit; a kernel thread. */
const PF_EXITING = 0x4
const PF_KTHREAD = 0x200000

/** A look through /proc: each process's environment read, and a marked one ended, one at a time. */
function lookInProc(entry: string): MarkedLook {
  const look: MarkedLook = { marked: [], unmarked: new Set(), unread: new Set() }
  let names: string[]
  try {
    names = readdirSync("/proc")
  } catch {
    return look
  }
  // Newest first: a process that starts another and exits is read soonest after the listing.
  const pids = names
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0 && pid !== process.pid)
    .sort((a, b) => b - a)
  for (const pid of pids) {
    let environment = ""
    try {
      // NUL-separated KEY=value entries, as the process was started.
      environment = readFileSync(`/proc/${pid}/environ`, "latin1")
    } catch (error) {
      // Another user's (or one that forbids it) is neither readable nor ours to end.
      const code = (error as NodeJS.ErrnoException).code
      if (code === "EACCES" || code === "EPERM") continue
    }
    if (environment === "") {
      // Nothing read: a process that ended or is ending (gone, or its memory is), a kernel thread
      // (ESRCH), or one started with an empty environment.
      look[isEnding(pid) ? "unread" : "unmarked"].add(pid)
      continue
    }
    if (!hasEntry(`\0${environment}`, "\0", entry, true)) {
      look.unmarked.add(pid)
      continue
    }
    // At once: a moment later it may have started a child and exited.
    signal(pid)
    look.marked.push(pid)
  }
  return look
}

/**
 * A look through `ps` (macOS, the BSDs): ps lists every process first and reads the environments
 * after, so one that ended in between shows none. A second, short listing tells which ones no
 * longer run: those count as unread.
 */
function lookWithPs(entry: string, platform: NodeJS.Platform): MarkedLook {
  const look: MarkedLook = { marked: [], unmarked: new Set(), unread: new Set() }
  // Each process's environment after its command, uncut (`-ww`): `-E` on macOS, `-e` on the BSDs,
  // the `e` modifier for Linux's procps. Entries are separated by spaces there.
  const environment = platform === "darwin" ? ["-E"] : platform === "linux" ? [] : ["-e"]
  const args = ["-A", "-ww", ...environment, "-o", "pid=,state=,command=", ...(platform === "linux" ? ["e"] : [])]
  const read: number[] = []
  const listing = runProgram("ps", args)
  for (const line of listing.output.split("\n")) {
    const [pid, state] = processRow(line)
    // A zombie has ended and starts nothing more; it shows no environment. The `ps` has ended too.
    if (pid === undefined || pid === process.pid || pid === listing.pid || state.startsWith("Z")) continue
    if (hasEntry(line, " ", entry, true)) {
      signal(pid)
      look.marked.push(pid)
    } else read.push(pid)
  }
  if (read.length === 0) return look
  // (Without that listing, each is taken as read.)
  const after = run("ps", ["-A", "-o", "pid=,state="])
  const running = new Set<number>()
  for (const line of after.split("\n")) {
    const [pid, state] = processRow(line)
    if (pid !== undefined && !state.startsWith("Z")) running.add(pid)
  }
  for (const pid of read) look[after === "" || running.has(pid) ? "unmarked" : "unread"].add(pid)
  return look
}

/** The id and state of a `ps -o pid=,state=...` row; no id for a line that is not one. */
function processRow(line: string): [number, string] | [undefined, ""] {
  const [pid, state] = line.trim().split(/\s+/)
  const id = Number(pid)
  return Number.isInteger(id) && id > 0 && state !== undefined ? [id, state] : [undefined, ""]
}

/** Whether a process whose environment read empty has ended or is ending: not a kernel thread, nor one with none. */
function isEnding(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const flags = Number(fields[6])
    if (fields[0] === "Z" || fields[0] === "X") return true
    return Number.isInteger(flags) && (flags & PF_KTHREAD) === 0 && (flags & PF_EXITING) !== 0
  } catch {
    return true
  }
}

/** Each process's id, parent and start (FILETIME, for the age check), one per line. */
const LIST_PROCESSES =
  'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId) $(if ($_.CreationDate) { $_.CreationDate.ToFileTimeUtc() } else { 0 })" }'

/** -EncodedCommand takes UTF-16LE in base64: no quoting for cmd.exe or PowerShell to get wrong. */
function encodePowerShell(script: string): string {
  return Buffer.from(script, "utf16le").toString("base64")
}

function fromProc(): ProcessEntry[] {
  const table: ProcessEntry[] = []
  forEachProcess((pid) => {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
    if (Number.isInteger(ppid)) table.push({ pid, ppid })
  })
  return table
}

function withEnvironmentInProc(entries: readonly string[], exact: boolean): number[] {
  const found: number[] = []
  forEachProcess((pid) => {
    if (pid === process.pid) return
    // NUL-separated KEY=value entries, as the process was started.
    const environment = `\0${readFileSync(`/proc/${pid}/environ`, "latin1")}`
    if (entries.every((entry) => hasEntry(environment, "\0", entry, exact)) && !isZombie(pid)) found.push(pid)
  })
  return found
}

/** Whether `entry` starts one of the `separator`-separated entries of `text` (and ends it, when exact). */
function hasEntry(text: string, separator: string, entry: string, exact: boolean): boolean {
  let at = text.indexOf(`${separator}${entry}`)
  while (at !== -1) {
    const next = text[at + separator.length + entry.length]
    if (!exact || next === undefined || next === separator || (separator === " " && /\s/.test(next))) return true
    at = text.indexOf(`${separator}${entry}`, at + 1)
  }
  return false
}

/** Calls `visit` with each process id in /proc; a process that is gone, or another user's, is skipped. */
function forEachProcess(visit: (pid: number) => void): void {
  let names: string[]
  try {
    names = readdirSync("/proc")
  } catch {
    return
  }
  for (const name of names) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    try {
      visit(pid)
    } catch {}
  }
}

/** A zombie has ended; it waits only for its parent to read its status, and a signal changes nothing. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")
  } catch {
    return true
  }
}

function run(command: string, args: string[]): string {
  return runProgram(command, args).output
}

/** A program's output (empty when it failed), and its id: a listing has a row for the `ps` that made it. */
function runProgram(command: string, args: string[]): { output: string; pid?: number } {
  try {
    const result = programOutputSync(command, args, { timeout: 15_000 })
    return { output: result.status === 0 ? result.stdout : "", pid: result.pid }
  } catch {
    return { output: "" }
  }
}

/** Whether a process has this id (one that is not this user's counts). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

function signal(pid: number): void {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // Gone already, or never ours.
  }
}
