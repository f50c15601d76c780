// What opencode 1.18.34 made of odd results, thrown values, execute functions and tool file names,
// observed on the binary: `tool-tester e2e` on a copy of test/fixtures/observed-result-texts with a
// script calling every tool (batches of ten), reading each call's part from `opencode run --format
// json` and the text from the next request the mock model received. The literals below are what it
// recorded.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { callTool, closeProject, listTools, loadTools } from "../src/index.ts"
import type { ToolProject } from "../src/types.ts"
import { fixture, packageRoot } from "./helpers.ts"

let project: ToolProject
let home: string

beforeAll(async () => {
  // An empty home of its own (as isolatedEnvironment makes, for the whole file).
  mkdirSync(path.join(packageRoot, ".tmp"), { recursive: true })
  home = mkdtempSync(path.join(packageRoot, ".tmp", "home-"))
  // The node engine runs the pipeline from this source, in this process; the bun engine runs the
  // same code from the build.
  project = await loadTools({
    directory: fixture("observed-result-texts"),
    engine: "node",
    env: { XDG_CONFIG_HOME: path.join(home, ".config") },
    home,
  })
}, 120_000)

afterAll(() => {
  if (project !== undefined) closeProject(project)
  rmSync(home, { recursive: true, force: true })
})

async function call(name: string) {
  const result = await callTool(project, { name, rawArguments: "{}" })
  return { status: result.status, title: result.title, metadata: result.metadata, output: result.output }
}

const completed = (title: string, metadata: Record<string, unknown>, output: string) => ({
  status: "completed",
  title,
  metadata,
  output,
})

describe("results as opencode 1.18.34 records them", () => {
  test.each([
    ["res_title_number", completed("res_title_number", { truncated: false }, "o")],
    ["res_title_false", completed("res_title_false", { truncated: false }, "o")],
    ["res_title_object", completed("res_title_object", { truncated: false }, "o")],
    ["res_title_null", completed("", { truncated: false }, "o")],
    ["res_metadata_string", completed("", { 0: "a", 1: "b", truncated: false }, "o")],
    ["res_metadata_number", completed("", { truncated: false }, "o")],
    ["res_attachments_null", completed("", { truncated: false }, "o")],
    ["res_lone_surrogate", completed("", { truncated: false }, "🌍\uFFFD")],
    ["res_sync_thenable", completed("", { truncated: false }, "thenable ok")],
  ])("%s", async (name, expected) => {
    expect(await call(name)).toEqual(expected)
  })
})

describe("failed calls: the text the model reads", () => {
  test.each([
    [
      "res_attachments_string",
      "a.attachments?.map is not a function. (In 'a.attachments?.map((K)=>({...K,id:p.ascending(),sessionID:H.sessionID,messageID:e.processor.message.id}))', 'a.attachments?.map' is undefined)",
    ],
    ["res_throw_plain_object", '{\n  "code": 5\n}'],
    ["res_throw_number_message", '{\n  "message": 42\n}'],
    ["res_throw_empty_message", '{\n  "message": ""\n}'],
    ["res_throw_empty_object", "Error (no message)"],
    ["res_throw_to_string", "custom toString"],
    ["res_throw_message", "plain object message"],
    ["res_throw_empty_error", "Error"],
    ["res_throw_named_empty_error", "Named"],
    ["res_throw_class_instance", '{\n  "a": 1\n}'],
    ["res_throw_array", "1,2"],
    [
      "res_sync_string",
      "w0(()=>X(Q)).then is not a function. (In 'w0(()=>X(Q)).then((J)=>Y(I(J)),(J)=>Y(PX(J)))', 'w0(()=>X(Q)).then' is undefined)",
    ],
    ["res_sync_undefined", "undefined is not an object (evaluating 'w0(()=>X(Q)).then')"],
    ["res_execute_string", `ho.execute is not a function. (In 'ho.execute(Bo,vt)', 'ho.execute' is "not a function")`],
    [
      "res_execute_object",
      "ho.execute is not a function. (In 'ho.execute(Bo,vt)', 'ho.execute' is an instance of Object)",
    ],
  ])("%s", async (name, output) => {
    expect(await call(name)).toEqual({ status: "error", title: null, metadata: null, output })
  })
})

describe("an output that is not a string: opencode's truncation calls its split, then Buffer.byteLength", () => {
  const byteLengthRefusal =
    'The "string" argument must be of type string or an instance of Buffer or ArrayBuffer. Received an instance of'
  test.each([
    ["res_output_boxed", `${byteLengthRefusal} String`],
    ["res_boxed_string", "undefined is not an object (evaluating 'c.split')"],
    ["res_output_number", "c.split is not a function. (In 'c.split(`\n`)', 'c.split' is undefined)"],
    ["res_output_array", "c.split is not a function. (In 'c.split(`\n`)', 'c.split' is undefined)"],
    ["res_output_split_number", "c.split is not a function. (In 'c.split(`\n`)', 'c.split' is 5)"],
    ["res_output_splitter", `${byteLengthRefusal} Splitter`],
    ["res_output_split_throws", "split threw"],
    ["res_returns_true", "undefined is not an object (evaluating 'c.split')"],
  ])("%s", async (name, output) => {
    expect(await call(name)).toEqual({ status: "error", title: null, metadata: null, output })
  })
})

describe("the order opencode reads a result's fields in: the first getter that throws fails the call", () => {
  test.each([
    ["res_order_output_metadata", "output getter"],
    ["res_order_metadata_attachments", "metadata getter"],
    ["res_order_number_metadata", "metadata getter"],
    ["res_order_number_attachments", "attachments getter"],
    ["res_order_number_title", "c.split is not a function. (In 'c.split(`\n`)', 'c.split' is undefined)"],
    [
      "res_order_boxed_attachments",
      'The "string" argument must be of type string or an instance of Buffer or ArrayBuffer. Received an instance of String',
    ],
    ["res_order_title_attachments", "title getter"],
    ["res_order_title_metadata_function", "title getter"],
  ])("%s", async (name, output) => {
    expect(await call(name)).toEqual({ status: "error", title: null, metadata: null, output })
  })
})

describe("tool files and order", () => {
  test("a file named just .ts is a tool, and ids that are array indices come first", async () => {
    const ids = listTools(project).map((tool) => tool.id)
    expect(ids.slice(0, 4)).toEqual(["123", ".ts", "007", "alpha"])
    expect(await call(".ts")).toEqual(completed("", { truncated: false }, "ran .ts"))
    const rerouted = await callTool(project, { name: "nope", rawArguments: "{}" })
    expect(rerouted.output).toContain("Available tools: 123, .ts, 007, alpha, bash, edit,")
  })
})
