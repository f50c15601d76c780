// The tools in the order opencode offers them, each with where it comes from and what is wrong
// with it, inline. Built-ins are listed too (they are part of the request), folded away.
import { html } from "./html.ts"
import type { Problem, ProjectView, ToolView } from "./types.ts"

export function ToolList(props: {
  view: ProjectView
  selected: string | undefined
  onSelect: (id: string) => void
}): unknown {
  const custom = props.view.tools.filter((tool) => tool.source !== "builtin")
  const builtins = props.view.tools.filter((tool) => tool.source === "builtin")
  return html`<nav class="tools" data-testid="tools">
    ${
      props.view.noTools
        ? html`<div class="problem error">opencode offers no tools for this load</div>`
        : custom.length === 0
          ? html`<div class="hint">No custom tools found.</div>`
          : null
    }
    <ul>
      ${custom.map(
        (tool) => html`<li key=${tool.id} class=${tool.id === props.selected ? "selected" : ""}>
          <button type="button" class="tool" data-tool=${tool.id} aria-current=${tool.id === props.selected ? "true" : undefined}
            onClick=${() => props.onSelect(tool.id)}>
            <span class="name">${tool.id}</span>
            <span class="hint">${origin(tool, props.view.directory)}</span>
            ${tool.overrides ? html`<span class="badge warn">overrides ${short(tool.overrides, props.view.directory)}</span>` : null}
          </button>
          ${problems(tool)}
        </li>`,
      )}
    </ul>
    ${props.view.problems.length > 0 ? html`<h3>Project</h3><ul class="problems" data-testid="project-problems">${props.view.problems.map(problem)}</ul>` : null}
    <details class="builtins"><summary>${builtins.length} built-in tools</summary>
      <div class="hint">${builtins.map((tool) => tool.id).join(", ")}</div>
    </details>
  </nav>`
}

export function origin(tool: ToolView, directory: string): string {
  if (tool.source === "plugin") return `plugin ${tool.plugin ?? short(tool.file ?? "", directory)}`
  const file = short(tool.file ?? "", directory)
  return tool.export && tool.export !== "default" ? `${file} (export ${tool.export})` : file
}

function problems(tool: ToolView): unknown {
  const all = [...tool.diagnostics, ...tool.findings]
  return all.length === 0 ? null : html`<ul class="problems">${all.map(problem)}</ul>`
}

function problem(item: Problem): unknown {
  const code = item.rule ?? item.code
  return html`<li class=${`problem ${item.severity}`} data-problem=${code}><b>${code}</b> ${item.message}</li>`
}

function short(file: string, directory: string): string {
  return file.startsWith(`${directory}/`) ? file.slice(directory.length + 1) : file
}
