// A guarded polyfill (a standard member added only where the runtime lacks it, as core-js and
// hand-written shims do) is not tampering: the tool that adds it keeps working, and so do the
// others. Real tampering is blamed on the file that did it, also when it happens at import; and the
// built-ins truncation relies on (Buffer.byteLength) are watched too.
import { describe, expect, onTestFinished, test, vi } from "vitest"
import type { ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "../support/tmp-project.ts"

type Engine = "node" | "bun"

async function load(directory: string, engine: Engine): Promise<ToolProject> {
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({ directory, env, home, engine })
  onTestFinished(() => closeProject(project))
  return project
}

/**
 * Guarded polyfills of standard members some runtime lacks (Node 20 lacks all of these; a runtime
 * that has them runs none of the shims).
 */
const POLYFILLS = `import { tool } from "@opencode-ai/plugin"
if (!Promise.withResolvers) {
  Promise.withResolvers = function () {
    let resolve, reject
    const promise = new Promise((yes, no) => { resolve = yes; reject = no })
    return { promise, resolve, reject }
  }
}
if (!("union" in Set.prototype)) {
  Object.defineProperty(Set.prototype, "union", {
    value: function (other) { const all = new Set(this); for (const item of other) all.add(item); return all },
    writable: true, configurable: true, enumerable: false,
  })
}
// The iterator helpers, as core-js adds them: on the prototype every iterator inherits from.
const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()))
if (!("toArray" in IteratorPrototype)) {
  Object.defineProperty(IteratorPrototype, "toArray", {
    value: function () { const all = []; for (const item of this) all.push(item); return all },
    writable: true, configurable: true, enumerable: false,
  })
}
if (!(Symbol.toStringTag in IteratorPrototype)) {
  Object.defineProperty(IteratorPrototype, Symbol.toStringTag, { value: "Iterator", writable: true, configurable: true })
}
if (!Object.groupBy) {
  Object.groupBy = (items, key) => {
    const groups = Object.create(null)
    for (const item of items) (groups[key(item)] ??= []).push(item)
    return groups
  }
}
export default tool({
  description: "uses polyfilled built-ins",
  args: {},
  async execute() {
    const { promise, resolve } = Promise.withResolvers()
    resolve(new Set([1, 2]).union(new Set([2, 3])).size)
    return String(await promise) + " " + Object.keys(Object.groupBy([1, 2, 3], (n) => (n % 2 ? "odd" : "even"))).sort().join(",") + " " + new Map([["a", 1]]).keys().toArray().join("")
  },
})
`

const engines: Engine[] = ["node", "bun"]

describe.each(engines)("built-ins under the %s engine (library)", { timeout: 120_000 }, (engine) => {
  test("a tool with guarded polyfills runs, every time, and the next tool is not blamed", async () => {
    const directory = tmpProject({
      ".opencode/tools/shimmed.ts": POLYFILLS,
      ".opencode/tools/plain.ts": toolSource("plain"),
    })
    const project = await load(directory, engine)
    expect(project.diagnostics).toEqual([])
    const plain = await runTool(project, "plain", {})
    expect(plain.error).toBeUndefined()
    expect(plain.output).toBe("plain")
    for (let call = 0; call < 2; call++) {
      const shimmed = await runTool(project, "shimmed", {})
      expect(shimmed.error).toBeUndefined()
      expect(shimmed.output).toBe("3 even,odd a")
    }
  })

  test("a file that tampers while it is imported is blamed, not the tool that runs next", async () => {
    const directory = tmpProject({
      ".opencode/tools/tamper.ts": `Object.defineProperty(Object.prototype, "polluted", { value: 1, writable: true, configurable: true })
${toolSource("tampers")}`,
      ".opencode/tools/plain.ts": toolSource("plain", 'return "polluted" in {} ? "saw it" : "clean"'),
    })
    const project = await load(directory, engine)
    const blamed = project.diagnostics.filter((found) => found.code === "TOOL_TAMPERED")
    expect(blamed).toHaveLength(1)
    expect(blamed[0]!.file).toMatch(/tamper\.ts$/)
    expect(blamed[0]!.message).toContain("Object.prototype.polluted")
    const plain = await runTool(project, "plain", {})
    expect(plain.error).toBeUndefined()
    expect(plain.output).toBe("clean")
    const tamper = await runTool(project, "tamper", {})
    expect(tamper.error?.code).toBe("TOOL_TAMPERED")
    expect(tamper.error?.message).toContain("Object.prototype.polluted")
  })

  // for...of, spreading and Promise.all step through these: a replaced `next` is tampering like a
  // replaced Array.prototype method, put back before the report is made. (A wrapper here: under the
  // node engine the library runs tools in this process.)
  test("a replaced `next` of the array, Map, Set or string iterators is TOOL_TAMPERED, and put back", async () => {
    const iterators = {
      "%ArrayIteratorPrototype%": "[][Symbol.iterator]()",
      "%MapIteratorPrototype%": "new Map()[Symbol.iterator]()",
      "%SetIteratorPrototype%": "new Set()[Symbol.iterator]()",
      "%StringIteratorPrototype%": '""[Symbol.iterator]()',
    }
    const files: Record<string, string> = {}
    for (const [index, iterator] of Object.values(iterators).entries())
      files[`.opencode/tools/iterates_${index}.ts`] = toolSource(
        "replaces next",
        `const prototype = Object.getPrototypeOf(${iterator}); const next = prototype.next; prototype.next = function () { return next.call(this) }; return "done"`,
      )
    const project = await load(tmpProject(files), engine)
    for (const [index, label] of Object.keys(iterators).entries()) {
      const result = await runTool(project, `iterates_${index}`, {})
      expect(result.error?.code).toBe("TOOL_TAMPERED")
      expect(result.error?.message).toContain(`${label}.next`)
    }
    // Under the node engine the tools ran here: the originals are back.
    const iterated = [
      [][Symbol.iterator](),
      new Map()[Symbol.iterator](),
      new Set()[Symbol.iterator](),
      ""[Symbol.iterator](),
    ]
    for (const iterator of iterated)
      expect(String((Object.getPrototypeOf(iterator) as { next: unknown }).next)).toContain("[native code]")
  })

  // `for...of` over `map.entries()` or a generator asks the iterator for its iterator: a replaced
  // one could hand the report's loops an iterator of the tool's choosing.
  test("a replaced [Symbol.iterator] of the prototype all iterators share is TOOL_TAMPERED, and put back", async () => {
    const replaces = toolSource(
      "replaces the iterators' iterator",
      'const prototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())); prototype[Symbol.iterator] = function () { return [][Symbol.iterator]() }; return "done"',
    )
    const project = await load(tmpProject({ ".opencode/tools/iterates.ts": replaces }), engine)
    const result = await runTool(project, "iterates", {})
    expect(result.error?.code).toBe("TOOL_TAMPERED")
    expect(result.error?.message).toContain("%IteratorPrototype%.Symbol(Symbol.iterator)")
    // Under the node engine the tool ran here: the original is back, and iterates the map.
    expect([...new Map([["k", 1]]).keys()]).toEqual(["k"])
  })

  test("a replaced Buffer.byteLength is TOOL_TAMPERED, not truncation turned off", async () => {
    // 40,000 characters of 2 bytes each: under the 51,200-byte limit in characters, over it in bytes.
    const directory = tmpProject({
      ".opencode/tools/lies.ts": toolSource("lies", 'Buffer.byteLength = () => 0; return "é".repeat(40000)'),
      ".opencode/tools/long.ts": toolSource("long", 'return "é".repeat(40000)'),
    })
    const project = await load(directory, engine)
    const lies = await runTool(project, "lies", {}, { dataDirectory: tmpProject({}, { git: false }) })
    expect(lies.error?.code).toBe("TOOL_TAMPERED")
    expect(lies.error?.message).toContain("Buffer.byteLength")
    const long = await runTool(project, "long", {}, { dataDirectory: tmpProject({}, { git: false }) })
    expect(long.truncated).toBe(true)
  })
})

test("the snapshot keeps a standard member a tool adds where it was missing, and takes away any other key", async () => {
  // Set.prototype.union made missing, whatever runtime runs this test, before a fresh snapshot.
  const union = Object.getOwnPropertyDescriptor(Set.prototype, "union")
  Reflect.deleteProperty(Set.prototype, "union")
  onTestFinished(() => {
    Reflect.deleteProperty(Set.prototype, "union")
    if (union) Object.defineProperty(Set.prototype, "union", union)
  })
  vi.resetModules()
  const { restoreBuiltins } = await import("../../src/_pristine.ts")
  const shim = function union() {}
  Object.defineProperty(Set.prototype, "union", { value: shim, writable: true, configurable: true })
  Object.defineProperty(Set.prototype, "unionAll", { value: shim, writable: true, configurable: true })
  expect(restoreBuiltins()).toEqual(["Set.prototype.unionAll"])
  expect(Object.getOwnPropertyDescriptor(Set.prototype, "union")?.value).toBe(shim)
  expect("unionAll" in Set.prototype).toBe(false)
  // Kept, and watched from then on: replacing the shim is a change.
  Object.defineProperty(Set.prototype, "union", { value: () => 0, writable: true, configurable: true })
  expect(restoreBuiltins()).toEqual(["Set.prototype.union"])
  expect(Object.getOwnPropertyDescriptor(Set.prototype, "union")?.value).toBe(shim)
})

test("doctor reports a file that tampers while it is imported, with the file", async () => {
  const { doctorProject } = await import("../../src/tasks/doctor-task.ts")
  const directory = tmpProject({
    ".opencode/tools/tamper.ts": `Object.defineProperty(Array.prototype, "last", { get() { return this[this.length - 1] }, configurable: true })
${toolSource("tampers")}`,
  })
  const project = await load(directory, "node")
  const findings = (await doctorProject(project, { cwd: directory })) as {
    findings: Array<{ code: string; file: string | null; message: string }>
  }
  const tampered = findings.findings.filter((finding) => finding.code === "TOOL_TAMPERED")
  expect(tampered).toHaveLength(1)
  expect(tampered[0]!.file).toMatch(/tamper\.ts$/)
  expect(tampered[0]!.message).toContain("Array.prototype.last")
})
