import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import ts from "typescript"
import { describe, expect, test } from "vitest"
import { checkerOptions } from "./_checker-options.ts"

const here = path.dirname(fileURLToPath(import.meta.url))
const corpus = path.join(here, "compat", "corpus")
const ourPlugin = path.resolve(here, "..")
// The real package, installed under an alias as a dev dependency.
const realPlugin = path.join(ourPlugin, "node_modules", "real-opencode-plugin")

const files = ts.sys.readDirectory(corpus, [".ts"])

/** Type-checks the corpus with `@opencode-ai/plugin` pointing at one package; returns its diagnostics. */
function typecheck(pluginRoot: string): string[] {
  const program = ts.createProgram(files, {
    ...checkerOptions,
    baseUrl: corpus,
    paths: {
      "@opencode-ai/plugin": [path.join(pluginRoot, "dist", "index.d.ts")],
      zod: [path.join(ourPlugin, "node_modules", "zod", "index.d.cts")],
    },
  })
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${path.relative(corpus, diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : "global"
    return `${where} TS${diagnostic.code}`
  })
}

describe("the compatibility corpus", () => {
  const ours = typecheck(ourPlugin)
  const real = typecheck(realPlugin)

  test("compiles against the real @opencode-ai/plugin@1.18.33 except the docs example that returns a number", () => {
    expect(real).toEqual(["docs-math-number.ts:11 TS2322"])
  })

  test("gives exactly the same diagnostics against our package", () => {
    expect(ours).toEqual(real)
  })

  test("runs against our package: each tool returns what the docs say", async () => {
    const context = {
      sessionID: "ses_1",
      messageID: "msg_1",
      agent: "build",
      directory: "/project",
      worktree: "/project",
      abort: new AbortController().signal,
      metadata: () => {},
      ask: async () => {},
    }
    const load = (name: string) => import(pathToFileURL(path.join(corpus, name)).href)
    expect(await (await load("database.ts")).default.execute({ query: "select 1" }, context)).toBe(
      "Executed query: select 1",
    )
    const math = await load("math.ts")
    expect(await math.add.execute({ a: 2, b: 3 }, context)).toBe("5")
    expect(await math.multiply.execute({ a: 2, b: 3 }, context)).toBe("6")
    expect(await (await load("object-result.ts")).default.execute({ text: "a b a", unique: true }, context)).toEqual({
      title: "2 words",
      output: "2",
      metadata: { count: 2, agent: "build", directory: "/project" },
    })
    expect(await (await load("plain-object.ts")).default.execute({ param: "x" }, context)).toBe("result x ses_1")
    expect(await (await load("ask-permission.ts")).default.execute({ folder: "/tmp", limit: 3 }, context)).toBe(
      "/tmp (3) in /project",
    )
    const { GreeterPlugin } = await load("plugin-module.ts")
    const hooks = await GreeterPlugin({ directory: "/project" }, { greeting: "Hi" })
    expect(await hooks.tool.greet.execute({ name: "Ada" }, context)).toBe("Hi, Ada from /project")
    const definition = { description: "Greets someone", parameters: {} }
    await hooks["tool.definition"]({ toolID: "greet" }, definition)
    expect(definition.description).toBe("Greets someone (politely)")
    await expect(hooks["tool.execute.before"]({ tool: "read" }, { args: { filePath: "/p/.env" } })).rejects.toThrow(
      "Do not read .env files",
    )
  })

  test("runs the Python example through a Bun shell stand-in", async () => {
    const { execFile } = await import("node:child_process")
    const { mkdtemp, mkdir, writeFile, rm } = await import("node:fs/promises")
    const os = await import("node:os")
    const worktree = await mkdtemp(path.join(os.tmpdir(), "compat-python-"))
    try {
      await mkdir(path.join(worktree, ".opencode", "tools"), { recursive: true })
      await writeFile(
        path.join(worktree, ".opencode", "tools", "add.py"),
        "import sys\n\na = int(sys.argv[1])\nb = int(sys.argv[2])\nprint(a + b)\n",
      )
      // Bun.$ interpolates each value as one argument, never through a shell: so does this stand-in.
      ;(globalThis as any).Bun = {
        $: (strings: TemplateStringsArray, ...values: unknown[]) => {
          const [command, ...args] = [strings[0]!.trim(), ...values.map(String)]
          return {
            text: () =>
              new Promise<string>((resolve, reject) =>
                execFile(command, args, (error, stdout) => (error ? reject(error) : resolve(stdout))),
              ),
          }
        },
      }
      const addPython = await import(pathToFileURL(path.join(corpus, "add-python.ts")).href)
      expect(await addPython.default.execute({ a: 2, b: 40 }, { worktree })).toBe("42")
    } finally {
      delete (globalThis as any).Bun
      await rm(worktree, { recursive: true, force: true })
    }
  })
})
