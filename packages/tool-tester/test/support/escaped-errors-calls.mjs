// A user's script, run by escaped-errors.test.ts in a Node of its own: the library's node engine
// runs the tools in this very process, where a test runner would report what escapes as its own
// failure. Loads the escaped-errors probe with the engine named by argv[3] and calls each tool of
// argv[4..] twice, then prints every result as one JSON array on stdout.
import { closeProject, loadTools, runTool } from "../../dist/index.js"

const [directory, engine, ...tools] = process.argv.slice(2)
const project = await loadTools({ directory, engine })
const results = []
for (const tool of tools) {
  for (const round of [1, 2]) {
    const { name, status, output, escapedErrors, error } = await runTool(project, tool, {})
    results.push({ name, round, status, output, escapedErrors: escapedErrors ?? null, error: error?.code ?? null })
  }
}
closeProject(project)
process.stdout.write(`${JSON.stringify(results)}\n`)
