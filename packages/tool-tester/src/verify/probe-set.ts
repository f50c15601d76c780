// The probe projects behind the conformance goldens and `tool-tester verify`, shipped in the
// package's `probes/` folder: `probes/<set>/` is an opencode project (`.opencode/tools/*.ts`,
// plugins, `opencode.json`) with a `probe.json`:
//   { "description": string,
//     "behaviour": Behaviour,              // what the set is about, for the calls' results (behaviours.ts)
//     "engines"?: string[],                // engines the set needs, e.g. ["bun"] for tools using Bun's API
//     "runs": [{ "name": string,
//                "model"?: string,         // default "mock-model" (ids with gemini / gpt- change the output)
//                "provider"?: string,      // npm package, default "@ai-sdk/openai-compatible"
//                "config"?: object,        // opencode config applied over the project's (runE2E `config`)
//                "agent"?: string,         // `opencode run --agent` (runE2E `agent`)
//                "git"?: boolean,          // run in a `git init`ed copy (worktree = project) instead of none ("/")
//                "timeoutMs"?: number,     // the golden generator's bound of the run; a run that reaches it is recorded as hung
//                "mayHang"?: boolean,      // the run may hang opencode on purpose: verify bounds it by the machine's
//                                          // speed instead (run-bounds.ts) and gives it a lane of its own
//                "endsOpencode"?: boolean, // a call of the run ends opencode's process on purpose (process.exit):
//                                          // the node engine, which runs tools in this process, does not replay it
//                                          // (a result opencode cannot copy ends its run too, with its own error, and
//                                          // needs neither flag: both engines predict it, probes/copy-failures)
//                "cpuDependent"?: boolean, // what opencode does depends on the CPU it runs on (Bun's byte count of a
//                                          // short line with a lone surrogate): verify observes it live, and the
//                                          // golden generator leaves it out (its observation holds on one kind of CPU)
//                "attachments"?: boolean,  // record what the request after each call carries of its
//                                          // result (e2e/carried-result.ts), compared with modelMessages:
//                                          // one call per turn, the model's input from the config's
//                                          // provider.mock.models.<model>.modalities.input
//                "script": Script }] }     // the model's turns (src/e2e/script.ts)
import { existsSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { closestMatch } from "../did-you-mean.ts"
import type { Script } from "../e2e/script.ts"
import { ToolTesterError } from "../errors.ts"
import { PROBES_DIRECTORY } from "../runtime/runtime-files.ts"
import { BEHAVIOURS, type Behaviour } from "./behaviours.ts"

export interface ProbeRun {
  name: string
  model?: string
  provider?: string
  config?: Record<string, unknown>
  git?: boolean
  agent?: string
  timeoutMs?: number
  mayHang?: boolean
  endsOpencode?: boolean
  cpuDependent?: boolean
  attachments?: boolean
  script: Script
}

export interface ProbeSet {
  set: string
  /** The project folder (probe.json included: copies leave it out). */
  directory: string
  description: string
  behaviour: Behaviour
  engines?: string[]
  runs: ProbeRun[]
}

/** The names of the shipped probe sets, sorted. */
function probeSetNames(directory: string = PROBES_DIRECTORY): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(directory, entry.name, "probe.json")))
    .map((entry) => entry.name)
    .sort()
}

/** The probe sets named (all when none is), read from `directory`; USAGE for a name that is no set. */
export function readProbeSets(names: readonly string[] = [], directory: string = PROBES_DIRECTORY): ProbeSet[] {
  const known = probeSetNames(directory)
  const unknown = names.filter((name) => !known.includes(name))
  if (unknown.length > 0) {
    const match = unknown.length === 1 ? closestMatch(unknown[0]!, known) : undefined
    const suggestion = match === undefined ? "" : ` (did you mean ${match}?)`
    throw new ToolTesterError(
      "USAGE",
      `no probe set named ${unknown.join(", ")}${suggestion}; the sets are: ${known.join(", ")}`,
    )
  }
  // A set named twice runs once: its checks would count twice.
  return (names.length > 0 ? [...new Set(names)] : known).map((set) => readProbeSet(set, directory))
}

// --- internal ---

function readProbeSet(set: string, probesDirectory: string): ProbeSet {
  const directory = path.join(probesDirectory, set)
  const probe = JSON.parse(readFileSync(path.join(directory, "probe.json"), "utf8")) as Omit<
    ProbeSet,
    "set" | "directory"
  >
  if (!BEHAVIOURS.includes(probe.behaviour))
    throw new Error(`probe set ${set}: "behaviour" must be one of ${BEHAVIOURS.join(", ")}`)
  return { set, directory, ...probe }
}
