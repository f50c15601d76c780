// opencode 1.18.34 copies a result's metadata and attachments with structuredClone, then writes
// them out with JSON.stringify, before the model reads anything: what either refuses ends its whole
// run, and the model gets no answer. So does a thrown value it cannot turn into text. Observed on the binary: `tool-tester e2e` on a copy of
// test/fixtures/opencode-copy, one call per run (each failing call ended `opencode run` with exit 1
// and logged the session error quoted below; copy_getter's was the getter's own error). Before,
// tool-tester reported all of them completed, the function dropped, the BigInt as "10n", the cycle
// as "[Circular]" and the getter's value as "[threw when read: getter boom]".
import { describe, expect, test } from "vitest"
import { callTool } from "../src/index.ts"
import { opencode } from "./helpers.ts"
import { useLoadedFixture } from "./support/loaded-fixture.ts"

const CLONE = "The object can not be cloned."
const BIGINT = "JSON.stringify cannot serialize BigInt."
const CYCLE = "JSON.stringify cannot serialize cyclic structures."

// Each: the tool, the error opencode's run ended with, and the path and kind the message names.
const ending = [
  ["copy_fn", CLONE, "metadata.f, a function"],
  ["copy_nested", CLONE, "metadata.a.b[0], a function"],
  ["copy_tojson", CLONE, "metadata.toJSON, a function"],
  ["copy_symbol", CLONE, "metadata.s, a Symbol"],
  ["copy_weakmap", CLONE, "metadata.w, a WeakMap"],
  ["copy_promise", CLONE, "metadata.p, a Promise"],
  ["copy_bigint", BIGINT, "metadata.n, a BigInt"],
  // The tool's `metadata.self = metadata`: named on the tool's object, not on opencode's spread copy
  // of it (a new top whose `self` is the original, where the cycle closes one level down).
  ["copy_cycle", CYCLE, "metadata.self, a reference back to an object that holds it"],
  ["copy_proxy", CLONE, "metadata.p, a Proxy"],
  ["copy_revoked", CLONE, "metadata.p, a Proxy"],
  ["copy_getter", "getter boom", "metadata.nested.boom, a getter that throws when read"],
  ["copy_attachment", CLONE, "attachments[0].f, a function"],
] as const

// Each: the tool and the metadata the part got (JSON's view of the copy).
const passing = [
  ["copy_instance", { d: { y: 1 }, truncated: false }],
  ["copy_error", { e: {}, truncated: false }],
  ["copy_plain", { a: 1, d: "1970-01-01T00:00:00.000Z", m: {}, truncated: false }],
  ["copy_inherited", { truncated: false }],
  ["copy_symbolkey", { a: 1, truncated: false }],
] as const

// Thrown values: the run-ending error, or the text the model read.
const thrownEnding = [
  ["throws_cycle", CYCLE],
  ["throws_bigint", BIGINT],
  ["throws_nullproto", "No default value"],
  ["throws_message42", 'Expected string, got 42\n  at ["message"]'],
  ["throws_messageobject", 'Expected string, got {"a":1}\n  at ["message"]'],
  ["throws_messagetrue", 'Expected string, got true\n  at ["message"]'],
  ["throws_tostring", "tostring boom"],
  ["throws_proxy", "trap"],
] as const
const thrownRead = [
  ["throws_messagenull", "Error"],
  ["throws_messageundefined", "Error"],
  ["throws_plainmessage42", '{\n  "message": 42\n}'],
  // The node engine's transpiler writes the empty body on two lines.
  ["throws_fn", /^function named\(\) \{\s*\}$/],
  ["throws_symbol", "Symbol(s)"],
] as const

const engines = [
  { name: "node" as const },
  { name: "bun" as const, ...(opencode.reason ? { skip: opencode.reason } : {}) },
]

for (const engine of engines)
  describe.skipIf("skip" in engine)(`what opencode cannot copy (${engine.name} engine)`, () => {
    const loaded = useLoadedFixture("opencode-copy", engine.name)

    for (const [name, opencodeError, named] of ending)
      test(`${name}: TOOL_BAD_RESULT, the model gets no answer`, async () => {
        const result = await callTool(loaded.project, { name, rawArguments: "{}" })
        expect(result.status).toBe("error")
        expect(result.error?.code).toBe("TOOL_BAD_RESULT")
        expect(result.output).toBe(`(no answer: opencode's run ended with "${opencodeError}")`)
        expect(result.error?.message).toContain(
          `${name}: execute returned ${named}, which opencode cannot copy: it ends its whole run with "${opencodeError}"`,
        )
      })

    for (const [name, opencodeError] of thrownEnding)
      test(`${name}: a thrown value opencode cannot print: TOOL_BAD_RESULT, the model gets no answer`, async () => {
        const result = await callTool(loaded.project, { name, rawArguments: "{}" })
        expect(result.error?.code).toBe("TOOL_BAD_RESULT")
        expect(result.output).toBe(`(no answer: opencode's run ended with "${opencodeError}")`)
        expect(result.error?.message).toContain(`${name} threw a value opencode cannot turn into text (`)
      })

    for (const [name, output] of thrownRead)
      test(`${name}: a thrown value the model reads as opencode prints it`, async () => {
        const result = await callTool(loaded.project, { name, rawArguments: "{}" })
        expect(result.error?.code).toBe("TOOL_THREW")
        if (typeof output === "string") expect(result.output).toBe(output)
        else expect(result.output).toMatch(output)
      })

    for (const [name, metadata] of passing)
      test(`${name}: completed, as opencode copies it`, async () => {
        const result = await callTool(loaded.project, { name, rawArguments: "{}" })
        expect(result.status, result.error?.message).toBe("completed")
        expect(JSON.parse(JSON.stringify(result.metadata))).toEqual(metadata)
      })
  })
