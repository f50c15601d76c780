import { expect, test } from "vitest"
import { thrownAt } from "../../src/inspector/thrown-at.ts"

// The inspector names the line of the tool file an error came from: the stack's first frame there,
// not the pipeline's frames above or below it.

const directory = "/home/me/app"
const toolFile = "/home/me/app/.opencode/tools/weather.ts"

test("Bun's stack: the first frame in the tool file, relative to the project", () => {
  const stack = [
    "TypeError: undefined is not an object (evaluating 'args.city.toUpperCase')",
    "    at shout (/home/me/app/.opencode/tools/weather.ts:4:20)",
    "    at <anonymous> (/home/me/app/.opencode/tools/weather.ts:9:12)",
    "    at execute (/$bunfs/root/bun-serve.js:120:5)",
  ].join("\n")
  expect(thrownAt(stack, toolFile, directory)).toEqual({ location: ".opencode/tools/weather.ts:4:20" })
})

test("frames of other files first (a package, node: internals) are passed over", () => {
  const stack = [
    "Error: boom",
    "    at parse (node:internal/url:12:3)",
    "    at /home/me/app/.opencode/node_modules/lib/index.js:3:9",
    "    at file:///home/me/app/.opencode/tools/weather.ts:11:7",
  ].join("\n")
  expect(thrownAt(stack, toolFile, directory)).toEqual({ location: ".opencode/tools/weather.ts:11:7" })
})

test("a helper of the project when the tool file has no frame", () => {
  const stack = ["Error: boom", "    at read (/home/me/app/.opencode/lib/read.ts:2:9)", "    at node:fs:1:1"].join("\n")
  expect(thrownAt(stack, toolFile, directory)).toEqual({ location: ".opencode/lib/read.ts:2:9" })
})

test("the node engine's copy of a JavaScript tool keeps its lines; of a TypeScript one, the line is the copy's", () => {
  const copy = (name: string) =>
    `Error: boom\n    at execute (file:///tmp/opencode-tool-tester-1000/modules/ab12/${name}.0123456789ab.g2.mjs:8:15)`
  expect(thrownAt(copy("weather.js"), "/home/me/app/.opencode/tools/weather.js", directory)).toEqual({
    location: ".opencode/tools/weather.js:8:15",
  })
  expect(thrownAt(copy("weather.ts"), toolFile, directory)).toEqual({
    location: ".opencode/tools/weather.ts",
    note: "line 8:15 of the compiled copy the node engine runs; --engine bun shows the file's own line",
  })
})

test("Windows paths and file URLs compare as the same file", () => {
  const stack = "Error: boom\n    at execute (file:///C:/Users/me/app/.opencode/tools/weather.ts:5:3)"
  expect(thrownAt(stack, "C:\\Users\\me\\app\\.opencode\\tools\\weather.ts", "C:\\Users\\me\\app")).toEqual({
    location: ".opencode/tools/weather.ts:5:3",
  })
})

test("nothing when no frame is in the project", () => {
  expect(thrownAt("Error: boom\n    at node:fs:1:1", toolFile, directory)).toBeUndefined()
  expect(thrownAt("not a stack", toolFile, directory)).toBeUndefined()
})
