// A loaded project as it crosses from the bun engine to the Node side: everything but the live
// objects (tool definitions, plugin hooks, module namespaces), which stay where they were imported.
import type { ToolProject } from "../types.ts"

/** What the Node side keeps of a project loaded in the engine. */
export function projectSnapshot(project: ToolProject): ToolProject {
  return {
    ...project,
    tools: project.tools.map(({ definition: _definition, ...tool }) => tool),
    plugins: project.plugins.map(({ hooks: _hooks, ...plugin }) => plugin),
    files: project.files.map(({ namespace: _namespace, ...file }) => file),
  }
}
