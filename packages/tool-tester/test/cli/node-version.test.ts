import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { MINIMUM_NODE, nodeVersionProblem } from "../../src/cli/node-version.ts"
import { packageRoot } from "../helpers.ts"

describe("the Node version check bin.js runs first", () => {
  test("Node 20.19 and newer pass", () => {
    for (const version of ["20.19.0", "20.19.5", "20.20.0", "22.0.0", "24.11.1", "v22.3.0", "23.0.0-pre"])
      expect(nodeVersionProblem(version), version).toBeUndefined()
  })

  test("an older Node gets one line: what is needed, what was found, how to fix it", () => {
    for (const version of ["20.18.3", "20.12.2", "18.20.4", "16.0.0", "14.21.3"]) {
      const problem = nodeVersionProblem(version)
      expect(problem).toContain(`needs Node.js ${MINIMUM_NODE} or newer`)
      expect(problem).toContain(`this is Node.js ${version}`)
      expect(problem).toContain("install a current Node")
      expect(problem).not.toContain("\n")
    }
  })

  test("the minimum is the one package.json declares in engines", () => {
    const manifest = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as {
      engines: { node: string }
    }
    expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE.replace(/\.0$/, "")}`)
  })
})
