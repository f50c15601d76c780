// How long `tool-tester verify` lets a probe run's opencode go before it is stopped and recorded as
// hung. A fixed bound either makes a quiet machine wait for nothing (the runs declared `mayHang`
// hang opencode on purpose) or calls a slow start on a loaded machine a hang (fixed 45 s bounds did at load average
// 30 on 2 cores, where opencode's median probe run took 70 s; one run alone took 16 s at load 12). So the bound follows how long
// opencode takes on this machine now: runs that ended on their own are recorded, and a run that
// may hang is stopped only once it has gone `factor` times as long as the slowest of the last
// `window` of them (never under `floorMs`). The bound is read again while a run waits, so a
// machine that slows down raises it. Before any run has ended, `unmeasuredMs` holds.

/** The rule of the bounds (docs/cli.md#verify). */
export interface BoundRule {
  /** A run that may hang is never stopped sooner. */
  floorMs: number
  /** How many times the slowest recent run it waits. */
  factor: number
  /** How many of the latest runs count as recent. */
  window: number
  /** The bound before any run has ended on its own. */
  unmeasuredMs: number
  /** No bound is longer. */
  ceilingMs: number
}

export const defaultBoundRule: BoundRule = {
  floorMs: 15_000,
  factor: 2,
  window: 8,
  unmeasuredMs: 180_000,
  ceilingMs: 900_000,
}

/** The bound of a run not expected to hang, unless its probe gives one, and unless the machine is slower than it allows for. */
export const defaultRunBoundMs = 180_000

export class RunBounds {
  readonly rule: BoundRule
  readonly #recent: number[] = []

  constructor(rule: Partial<BoundRule> = {}) {
    this.rule = { ...defaultBoundRule, ...rule }
  }

  /** A run ended on its own (not stopped at its bound) after `durationMs`. */
  record(durationMs: number): void {
    this.#recent.push(durationMs)
    if (this.#recent.length > this.rule.window) this.#recent.shift()
  }

  /** The slowest of the recent runs that ended on their own; undefined before the first. */
  reference(): number | undefined {
    return this.#recent.length === 0 ? undefined : Math.max(...this.#recent)
  }

  /** The bound, now, of a run that may hang (a plugin that hangs opencode at init, a client call that never answers). */
  hangBoundMs(): number {
    const reference = this.reference()
    if (reference === undefined) return this.rule.unmeasuredMs
    return Math.min(this.rule.ceilingMs, Math.max(this.rule.floorMs, Math.round(this.rule.factor * reference)))
  }

  /** The bound, now, of a run not expected to hang: its own (default 180 s), or longer when the machine is slow. */
  runBoundMs(ownMs: number = defaultRunBoundMs): number {
    return Math.max(ownMs, this.hangBoundMs())
  }
}
