// verify replays the escaped-errors probes, whose tools let errors escape on purpose: what their
// bun engines print stays in the engines' pipes. Inherited, it was Bun's 122 lines of `error:
// rejected during execute` and stacks on verify's stderr, in a run where everything agreed. The
// replay needs no opencode (the recorded runs stand for it), only a Bun: opencode's.
import { spawnSync } from "node:child_process"
import path from "node:path"
import { expect, test } from "vitest"
import { opencode, packageRoot } from "../helpers.ts"

test.skipIf(!opencode.binary)(
  `replaying the escaped-errors runs prints nothing on stderr, and every run agrees ${opencode.reason ?? ""}`,
  { timeout: 300_000 },
  () => {
    const script = path.join(packageRoot, "test", "support", "compare-escaped-errors.ts")
    const child = spawnSync(process.execPath, ["--import", "tsx", script, opencode.binary!], {
      cwd: packageRoot,
      encoding: "utf8",
      timeout: 280_000,
    })
    expect(child.status, child.stderr).toBe(0)
    expect(child.stdout).toMatch(/^(\d+) of \1\n$/)
    expect(child.stderr).toBe("")
  },
)
