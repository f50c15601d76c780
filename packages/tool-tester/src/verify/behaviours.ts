// What `tool-tester verify` reports on: each check of a probe run belongs to one behaviour of
// opencode's tool pipeline, and the report says, per behaviour, whether tool-tester agrees with
// the opencode it ran.

export const BEHAVIOURS = [
  "discovery",
  "naming",
  "order",
  "schemas",
  "results",
  "truncation",
  "rerouting",
  "plugin hooks",
  "attachments",
] as const

export type Behaviour = (typeof BEHAVIOURS)[number]

/** One comparison of what opencode did with what tool-tester predicts. */
export interface Check {
  behaviour: Behaviour
  /** Probe set and run. */
  set: string
  run: string
  /** What was compared, e.g. "tool names", "schema of emit", "call 3 (emit)". */
  subject: string
  agree: boolean
  /** The two texts, only for a difference. */
  opencode?: string
  toolTester?: string
}

/** A check from the two texts: they agree when equal. */
export function check(
  where: Pick<Check, "behaviour" | "set" | "run" | "subject">,
  opencode: string,
  toolTester: string,
): Check {
  return opencode === toolTester ? { ...where, agree: true } : { ...where, agree: false, opencode, toolTester }
}

/** The behaviour of a call's result in a set about `behaviour`: the set's own when it is about what calls return. */
export function resultBehaviour(behaviour: Behaviour): Behaviour {
  const own: readonly Behaviour[] = ["truncation", "plugin hooks", "rerouting", "attachments"]
  return own.includes(behaviour) ? behaviour : "results"
}
