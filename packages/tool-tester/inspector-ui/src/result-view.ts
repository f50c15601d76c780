// One call's result as `tool-tester run` reports it: the model's view first, exactly as the model
// reads it, then what opencode records on the tool part.

import { thrownAt } from "../../src/inspector/thrown-at.ts"
import { escapedLine } from "../../src/runtime/escaped-advice.ts"
import { api } from "./api.ts"
import { CopyButton } from "./copy-button.ts"
import { html } from "./html.ts"
import { modelLabel } from "./model-picker.ts"
import { callStatus } from "./status.ts"
import type { HistoryEntry, RunResult } from "./types.ts"

/** `toolFile`: the file of the tool that ran, where the stack's frame is looked for. */
export function ResultView({
  entry,
  toolFile,
  directory,
  onCancel,
}: {
  entry: HistoryEntry
  toolFile: string | undefined
  directory: string
  onCancel: (id: number) => void
}): unknown {
  const { result, error } = entry
  const engine = entry.engine ? `${entry.engine.name} ${entry.engine.version}` : "no engine"
  const status = callStatus(entry)
  const badge = html`<span class=${`status ${status.tone}`} data-testid="status" title=${status.explanation}>${status.label}</span>`
  if (entry.running)
    return html`<section class="result" data-testid="result" data-call=${entry.id}>
      <div class="result-head">
        ${badge}
        <span class="timing" data-testid="timing">call #${entry.id} (${entry.trigger}) of ${entry.request.name}, started ${new Date(entry.at).toLocaleTimeString()}</span>
      </div>
      <div class="hint">${status.explanation}.</div>
      <button type="button" class="primary" data-testid="cancel" disabled=${entry.cancelling === true}
        onClick=${() => onCancel(entry.id)}>${entry.cancelling ? "Cancelling..." : `Cancel call #${entry.id}`}</button>
      ${section("Arguments sent", entry.request.form === "raw" ? entry.request.text : entry.request.args)}
    </section>`
  if (!result)
    return html`<section class="result" data-testid="result" data-call=${entry.id}>
      <div class="result-head">
        ${badge}
        <span class="timing" data-testid="timing">call #${entry.id} (${entry.trigger}) of ${entry.request.name}</span>
      </div>
      <div class="problem error" data-testid="result-error">${error?.message}</div>
    </section>`
  const rerouted = result.rerouted ? html`<span class="badge warn">rerouted to invalid</span>` : null
  const repaired = result.repaired ? html`<span class="badge">name repaired to ${result.id}</span>` : null
  return html`<section class="result" data-testid="result" data-call=${entry.id}>
    <div class="result-head">
      ${badge}
      ${
        result.title === null
          ? html`<span class="title" data-testid="title" title="opencode records no title for a failed call">${failedTitle(result)}</span>`
          : html`<span class="title" data-testid="title">${result.title}</span>`
      }
      ${rerouted} ${repaired}
      <span class="timing" data-testid="timing">${result.durationMs} ms · ${engine} · call #${entry.id} (${entry.trigger})</span>
      <${CopyButton} label="copy as JSON" text=${() => callJson(entry)} />
    </div>
    ${error ? html`<div class="problem error" data-testid="result-error">${error.message}</div>` : null}
    ${result.rerouted ? html`<div class="problem error" data-testid="rerouted">${status.explanation}.</div>` : null}
    ${result.error ? html`<div class="problem">${result.error.code}: ${result.error.message}</div>` : null}
    ${result.error?.thrown?.stack ? thrownSection(result.error.thrown.stack, toolFile, directory) : null}
    ${
      result.escapedErrors && result.escapedErrors.length > 0
        ? html`<ul class="escaped" data-testid="escaped" aria-label="Errors that escaped the tool">
            ${result.escapedErrors.map((escaped) => html`<li class="problem"><strong>escaped</strong> ${escapedLine(escaped)}</li>`)}
          </ul>`
        : null
    }
    <h3>What the model reads</h3>
    ${
      result.truncated
        ? html`<div class="notice" data-testid="truncated">The output was truncated, as opencode truncates it.
            ${result.outputPath ? html` The full output: <a href=${api.outputUrl(entry.id)} target="_blank" rel="noopener">saved file</a> (${result.outputPath}).` : null}</div>`
        : null
    }
    <pre class="model-view" data-testid="model-view">${result.output}</pre>
    ${section("Arguments the tool received", result.args)}
    ${section("Metadata", result.metadata)}
    ${result.attachments && result.attachments.length > 0 ? section("Attachments", result.attachments) : null}
    ${
      result.modelMessages === undefined
        ? null
        : result.modelRequestError !== undefined
          ? html`<div class="problem" data-testid="model-messages">The model never gets this result: opencode's run ends with "${result.modelRequestError}" as it writes the next request for ${modelLabel(entry.request.model)}.</div>`
          : result.modelMessages === null
            ? html`<div class="notice" data-testid="model-messages">What ${modelLabel(entry.request.model)} is sent of the attachments is not modelled: run tool-tester e2e with its provider to see it.</div>`
            : section(
                `With the attachments, the model's request carries (${modelLabel(entry.request.model)})`,
                result.modelMessages,
              )
    }
    ${
      // Cohere's package sends the files the model reads as the request's documents.
      result.modelDocuments && result.modelDocuments.length > 0
        ? section("And in the request's documents", result.modelDocuments)
        : null
    }
    ${result.asks.length > 0 ? section("ctx.ask records", result.asks) : null}
    ${result.metadataCalls.length > 0 ? section("ctx.metadata records", result.metadataCalls) : null}
    ${result.hookErrors && result.hookErrors.length > 0 ? section("Plugin event hook errors", result.hookErrors) : null}
  </section>`
}

/**
 * The call as JSON: the tool and its arguments as sent (`run --args` takes `args`; `text` is raw
 * text as a model sent it), then what opencode records of the result. A call kept cut in the
 * history is copied as kept, with its `full` link.
 */
function callJson(entry: HistoryEntry): string {
  const { request, result, error } = entry
  const sent = request.form === "raw" ? { text: request.text } : { args: request.args }
  return JSON.stringify({ tool: request.name, ...sent, result, error, full: entry.full }, null, 2)
}

/** What a failed call is called, since opencode stores no title for it: the tool and what went wrong. */
function failedTitle(result: RunResult): string {
  const thrown = result.error?.thrown
  if (thrown) return `${result.id} threw ${thrown.name}`
  return `${result.id} failed${result.error ? `: ${result.error.code}` : ""}`
}

/** The line to open (the stack's first frame in the tool file), then the whole stack, folded. */
function thrownSection(stack: string, toolFile: string | undefined, directory: string): unknown {
  const at = toolFile ? thrownAt(stack, toolFile, directory) : undefined
  return html`${
    at
      ? html`<div class="hint">thrown at <code data-testid="thrown-at">${at.location}</code>${at.note ? ` (${at.note})` : ""}</div>`
      : null
  }
    <details data-testid="stack">
      <summary>Stack</summary>
      <pre class="code">${stack}</pre>
    </details>`
}

function section(title: string, value: unknown): unknown {
  return html`<details open=${value !== null && value !== undefined}>
    <summary>${title}</summary>
    <pre class="code">${JSON.stringify(value ?? null, null, 2)}</pre>
  </details>`
}
