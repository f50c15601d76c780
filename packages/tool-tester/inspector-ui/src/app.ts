// The inspector page: tools on the left; the selected tool's call form or provider schemas in the
// middle; the result and the history on the right. Everything arrives over the event stream, so
// a save on disk shows up here without a touch.
import { useEffect, useId, useRef, useState } from "preact/hooks"
import { api, listen, type ServerEvent } from "./api.ts"
import { HistoryView } from "./history-view.ts"
import { html } from "./html.ts"
import { LongText } from "./long-text.ts"
import { ModelPicker } from "./model-picker.ts"
import { ResultView } from "./result-view.ts"
import { initialValue, SchemaField } from "./schema-form.ts"
import { SchemasView } from "./schemas-view.ts"
import { type ShownResults, showing, shownAfter, shownIn } from "./shown-results.ts"
import { type GoneTool, goneMessage, replacementOf } from "./tool-gone.ts"
import { origin, ToolList } from "./tool-list.ts"
import type { CallModel, CallRequest, HistoryEntry, JsonSchema, ProjectView, ToolView } from "./types.ts"

type Mode = "form" | "json" | "raw"

/** What is typed in one tool's call form, in each of its editors. */
/**
 * `held`: JSON text that did not parse when the form was switched to, with the form's value then.
 * Switched back before the form changes, the JSON editor shows that text again, not the form's.
 */
type FormState = {
  mode: Mode
  value: unknown
  jsonText: string
  rawText: string
  held?: { text: string; value: unknown } | undefined
}

// What was typed is kept here, by tool id, not in the forms: it survives a switch of tool or tab,
// a reload, and a save that breaks the file (the tool is gone until the fix, its arguments are not).
// A click on a history entry puts that call's tool and arguments back; so does a fresh page (a reload
// of the page, a new tab) for the last call, whose result it shows: never a result beside a form
// that did not make it. A result is shown only beside the tool that was called, and only in the
// page that asked for it (shown-results.ts). When a save takes away the tool that is open, the page
// says so and opens another (tool-gone.ts).

export function App(): unknown {
  const [view, setView] = useState<ProjectView | null>(null)
  const [history, setHistory] = useState<HistoryEntry[]>([])
  const [connected, setConnected] = useState(false)
  const [reloading, setReloading] = useState(false)
  const [selectedTool, setSelectedTool] = useState<string | undefined>(undefined)
  const [shown, setShown] = useState<ShownResults>({})
  const [gone, setGone] = useState<GoneTool | undefined>(undefined)
  // The tool open in the last render, and the custom tools of the last load that offered tools.
  const openTool = useRef<ToolView | undefined>(undefined)
  const offered = useRef<ToolView[]>([])
  const [tab, setTab] = useState<"call" | "schemas">("call")
  const [forms, setForms] = useState<Record<string, FormState>>({})
  // The model every call of this page is made for (model-picker.ts); none: the default.
  const [model, setModel] = useState<CallModel | undefined>(undefined)
  // The first hello is a fresh page; the next ones are reconnects, which keep what is on the page.
  const greeted = useRef(false)

  useEffect(
    () =>
      listen((event: ServerEvent) => {
        if (event.type === "hello") {
          setView(event.view)
          setHistory(event.history)
          const last = event.history.at(-1)
          if (!greeted.current && last) {
            const { request } = last
            const schema = event.view ? parametersOf(event.view, request.name) : undefined
            setSelectedTool(request.name)
            setForms((old) => ({ ...old, [request.name]: formFor(request, old[request.name] ?? freshForm(schema)) }))
            setModel(request.model)
            setShown(showing({}, last))
          } else if (!greeted.current) setShown({})
          else setShown((old) => shownIn(old, event.history))
          greeted.current = true
        } else if (event.type === "project") {
          setView(event.view)
          setReloading(false)
        } else if (event.type === "reloading") setReloading(true)
        else if (event.type === "call") {
          // A call is sent when it starts (running) and again when it ends: it keeps its place,
          // the order calls started in, which their numbers say.
          setHistory((old) =>
            [...old.filter((entry) => entry.id !== event.entry.id), event.entry].sort((a, b) => a.id - b.id),
          )
          setShown((old) => shownAfter(old, event.entry))
        }
      }, setConnected),
    [],
  )

  const custom = view ? customTools(view) : []
  const toolId = selectedTool ?? custom[0]?.id
  const tool = custom.find((candidate) => candidate.id === toolId)
  const shownEntry = toolId === undefined ? undefined : shown[toolId]?.id
  const entry = history.find((candidate) => candidate.id === shownEntry)

  // A load that no longer offers the open tool: say so, and open the likeliest same tool. A load
  // that offers no tool at all (a file fails to import) keeps it open until the fix.
  useEffect(() => {
    if (!view || view.error || view.noTools) return
    const now = customTools(view)
    const before = offered.current
    offered.current = now
    if (gone && now.some((candidate) => candidate.id === gone.id)) setGone(undefined)
    const open = openTool.current
    if (!open || now.some((candidate) => candidate.id === open.id)) return
    const replaced = replacementOf(open, before, now)
    openTool.current = undefined
    setGone(replaced)
    setSelectedTool(replaced.now?.id ?? open.id)
  }, [view])
  useEffect(() => {
    if (tool) openTool.current = tool
  })
  const select = (id: string) => {
    setGone(undefined)
    setSelectedTool(id)
  }
  const setForm = (id: string, state: FormState) => setForms((old) => ({ ...old, [id]: state }))
  const formOf = (id: string): FormState => forms[id] ?? freshForm(view ? parametersOf(view, id) : undefined)
  // What became of the call arrives as an event, in every open page; a cancel that came too late
  // (the call had ended) changes nothing.
  const cancel = (id: number) => void api.cancel(id).catch(() => undefined)
  const showEntry = (id: number) => {
    const shownCall = history.find((candidate) => candidate.id === id)
    if (!shownCall) return
    const { request } = shownCall
    setShown((old) => showing(old, shownCall))
    select(request.name)
    setTab("call")
    setForm(request.name, formFor(request, formOf(request.name)))
    setModel(request.model)
  }
  // A replay shows its call's tool and arguments, as a click does; its result follows there.
  const replay = (id: number) => {
    showEntry(id)
    void api.replay(id).catch(() => undefined)
  }

  return html`<div class=${tool && tab === "schemas" ? "layout wide" : "layout"}>
    <header>
      <h1>tool-tester dev</h1>
      <span class="hint">${view?.directory}</span>
      <span class="hint" data-testid="engine">${view?.engine ? `engine ${view.engine.name} ${view.engine.version}` : ""}</span>
      <span class="hint">${view ? `load #${view.generation} in ${view.loadMs} ms` : "loading..."}</span>
      ${reloading ? html`<span class="badge">reloading...</span>` : null}
      <span class=${connected ? "badge ok" : "badge warn"} data-testid="connection">${connected ? "live" : "disconnected"}</span>
      <button type="button" class="small" onClick=${() => void api.reload()}>reload</button>
    </header>
    ${view?.error ? html`<div class="problem error" data-testid="load-error"><b>${view.error.code}</b> ${view.error.message}</div>` : null}
    ${view?.noTools ? html`<div class="problem error" data-testid="no-tools"><b>${view.noTools.code}</b> ${view.noTools.message}</div>` : null}
    <aside>${view ? html`<${ToolList} view=${view} selected=${toolId} onSelect=${select} />` : null}</aside>
    <main>
      ${gone ? html`<div class="notice" role="status" data-testid="tool-gone">${goneMessage(gone)}</div>` : null}
      ${
        tool && view
          ? html`<div class="tool-head">
              <h2 data-testid="tool-name">${tool.id}</h2>
              <div class="hint">${origin(tool, view.directory)}</div>
              <${LongText} key=${tool.id} className="description" text=${tool.description ?? ""} />
              <div class="tabs">
                <button type="button" class=${tab === "call" ? "tab active" : "tab"} data-tab="call" aria-pressed=${tab === "call" ? "true" : "false"} onClick=${() => setTab("call")}>Call</button>
                <button type="button" class=${tab === "schemas" ? "tab active" : "tab"} data-tab="schemas" aria-pressed=${tab === "schemas" ? "true" : "false"} onClick=${() => setTab("schemas")}>Schemas by provider</button>
              </div>
            </div>
            ${custom.map(
              (candidate) => html`<div key=${candidate.id} hidden=${tab !== "call" || candidate.id !== tool.id}>
                <${CallForm} name=${candidate.id} schema=${parametersOf(view, candidate.id)}
                  state=${formOf(candidate.id)} onState=${(state: FormState) => setForm(candidate.id, state)}
                  model=${model} onModel=${setModel} />
              </div>`,
            )}
            ${tab === "schemas" ? html`<${SchemasView} view=${view} toolId=${tool.id} />` : null}`
          : html`<div class="hint">${nothingOpen(view, toolId, gone)}</div>`
      }
    </main>
    <section class="side">
      ${
        entry
          ? html`<${ResultView} entry=${entry} directory=${view?.directory ?? ""} onCancel=${cancel}
              toolFile=${view?.tools.find((candidate) => candidate.id === (entry.result?.id ?? entry.request.name))?.file} />`
          : html`<div class="hint">Run a call to see what the model reads.</div>`
      }
      <h3>History</h3>
      <${HistoryView} history=${history} selected=${shownEntry} onSelect=${showEntry}
        onReplay=${replay} onCancel=${cancel} />
    </section>
  </div>`
}

function CallForm(props: {
  name: string
  schema: JsonSchema | undefined
  state: FormState
  onState: (state: FormState) => void
  model: CallModel | undefined
  onModel: (model: CallModel | undefined) => void
}): unknown {
  const { name, schema, state } = props
  const chosen = props.model === undefined ? {} : { model: props.model }
  const { mode, value, jsonText, rawText } = state
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [running, setRunning] = useState(false)
  // Unique on the page: every tool's form is in the page at once, and a label must find its own field.
  const idPrefix = useId()
  const form = useRef<HTMLFormElement>(null)
  const update = (change: Partial<FormState>) => props.onState({ ...state, ...change })
  const setValue = (next: unknown) => update({ value: next })

  const switchTo = (next: Mode) => {
    if (next === mode) return
    const change: Partial<FormState> = { mode: next, held: undefined }
    // From the form: what it shows, not the last values its fields could hold (shownText); or the
    // JSON text it was left with, when the form has not changed since.
    if (next === "json")
      change.jsonText =
        mode === "form"
          ? state.held !== undefined &&
            state.held.value === value &&
            !form.current?.querySelector('[aria-invalid="true"]')
            ? state.held.text
            : shownText(value, form.current, 2)
          : JSON.stringify(value ?? {}, null, 2)
    if (next === "raw" && mode === "form") change.rawText = shownText(value, form.current)
    if (next === "form" && mode === "json") {
      try {
        change.value = JSON.parse(jsonText)
      } catch {
        // The form keeps its own value when the JSON does not parse, and the text is held.
        change.held = { text: jsonText, value }
      }
    }
    update(change)
  }

  const run = async (event: Event) => {
    event.preventDefault()
    setProblem(undefined)
    let request: Parameters<typeof api.call>[0]
    if (mode === "raw") request = { name, ...chosen, form: "raw", text: rawText }
    else if (mode === "json") {
      try {
        request = { name, ...chosen, form: "args", args: JSON.parse(jsonText) }
      } catch (error) {
        setProblem(`not JSON: ${(error as Error).message}; use "raw text" to send it as a model would`)
        return
      }
    } else {
      // A field edited as JSON whose text does not parse, or a number field left empty, holds its
      // last value that did: refuse rather than send what the form does not show (the field says why).
      const invalid = (event.currentTarget as HTMLFormElement).querySelector<HTMLElement>('[aria-invalid="true"]')
      if (invalid) {
        setProblem(`${invalid.dataset["field"] || "a field"} ${invalid.dataset["refusal"] ?? "is not valid: fix it"}`)
        invalid.focus()
        return
      }
      request = { name, ...chosen, form: "args", args: value }
    }
    setRunning(true)
    try {
      await api.call(request)
    } catch (error) {
      setProblem((error as Error).message)
    } finally {
      setRunning(false)
    }
  }

  return html`<form class="call" data-testid="call-form" ref=${form} onSubmit=${run}>
    <div class="tabs">
      ${(["form", "json", "raw"] as const).map(
        (
          candidate,
        ) => html`<button type="button" class=${mode === candidate ? "tab active" : "tab"} data-mode=${candidate}
          aria-pressed=${mode === candidate ? "true" : "false"} onClick=${() => switchTo(candidate)}>${candidate === "form" ? "form" : candidate === "json" ? "JSON" : "raw text"}</button>`,
      )}
    </div>
    ${
      mode === "form"
        ? html`${
            state.held !== undefined && state.held.value === value
              ? html`<div class="hint" data-testid="held-json">The JSON text does not parse, so the form shows the arguments from before it. Switch back to JSON to fix it.</div>`
              : null
          }${
            schema
              ? html`<${SchemaField} schema=${schema} value=${value} path="" idPrefix=${idPrefix} onChange=${setValue} />`
              : html`<div class="hint">No schema for this tool: use JSON arguments.</div>`
          }`
        : mode === "json"
          ? html`<textarea data-testid="json-editor" rows="10" aria-label=${`${name}: arguments as JSON`} value=${jsonText}
              onInput=${(event: Event) => update({ jsonText: (event.target as HTMLTextAreaElement).value })}></textarea>`
          : html`<div class="hint">The argument text as a model sends it, repaired as opencode does.</div>
            <textarea data-testid="raw-editor" rows="10" aria-label=${`${name}: argument text as a model sends it`} value=${rawText}
              onInput=${(event: Event) => update({ rawText: (event.target as HTMLTextAreaElement).value })}></textarea>`
    }
    ${problem ? html`<div class="problem error" data-testid="form-problem">${problem}</div>` : null}
    <${ModelPicker} model=${props.model} onChange=${props.onModel} />
    <button type="submit" class="primary" data-testid="run" disabled=${running}>${running ? "running..." : `Run ${name}`}</button>
  </form>`
}

/** A form nothing was typed in: valid for the schema where it can be. */
function freshForm(schema: JsonSchema | undefined): FormState {
  return { mode: "form", value: schema ? initialValue(schema) : {}, jsonText: "{}", rawText: "{}" }
}

/** The form that makes `request` again, in the editor it was made with. */
function formFor(request: CallRequest, old: FormState): FormState {
  return request.form === "raw"
    ? { ...old, mode: "raw", rawText: request.text, held: undefined }
    : {
        ...old,
        mode: "form",
        value: request.args,
        jsonText: JSON.stringify(request.args ?? {}, null, 2),
        held: undefined,
      }
}

/** What the middle says when no tool is open, and why. */
function nothingOpen(view: ProjectView | null, toolId: string | undefined, gone: GoneTool | undefined): string {
  if (!view || view.error) return ""
  if (view.noTools) return "Nothing to call: opencode offers no tools until the file imports again."
  // The notice above says what went.
  if (gone && gone.id === toolId) return ""
  if (customTools(view).length === 0) return "No custom or plugin tool is offered."
  return toolId === undefined ? "Select a tool." : `${toolId} is not offered by this load: select a tool.`
}

function customTools(view: ProjectView): ToolView[] {
  return view.tools.filter((tool) => tool.source !== "builtin")
}

function parametersOf(view: ProjectView, id: string): JsonSchema | undefined {
  const entry = view.schemas["openai-compatible"]
  return entry && "tools" in entry ? entry.tools[id]?.parameters : undefined
}

/**
 * The arguments as the form shows them, as JSON text (`indent` as JSON.stringify's), for the JSON
 * and raw text editors. A number field left empty (or holding no number) shows no number: its key
 * is left out (an item of a list keeps its place, as null), not written with the last number it
 * held. A field edited as JSON whose text does not parse is that text, as typed, not its last value
 * that did: the whole is then not JSON either, which the JSON editor refuses to send and the raw
 * text editor sends as a model would.
 */
function shownText(value: unknown, form: HTMLFormElement | null, indent?: number): string {
  const invalid = (selector: string) => [
    ...(form?.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(`${selector}[aria-invalid="true"]`) ?? []),
  ]
  let shown = structuredClone(value ?? {}) as unknown
  for (const field of invalid('input[type="number"]')) shown = replacedAt(shown, field.dataset["field"], undefined)
  const typed = new Map<string, string>()
  for (const field of invalid("textarea.json")) {
    const path = field.dataset["field"]
    if (path === undefined) continue
    if (path === "") return field.value
    // Stands for the typed text in the JSON text, then is replaced by it.
    const stand = `\u0000typed ${typed.size} ${Math.random()}`
    typed.set(JSON.stringify(stand), field.value)
    shown = replacedAt(shown, path, stand)
  }
  let text = JSON.stringify(shown, null, indent)
  for (const [stand, asTyped] of typed) text = text.replace(stand, () => asTyped)
  return text
}

/**
 * `root` with the value at `path` (`n`, `point.x`, `list.0`: a field's `data-field`) replaced, or
 * removed when `replacement` is undefined (an item of a list keeps its place, as null).
 */
function replacedAt(root: unknown, path: string | undefined, replacement: unknown): unknown {
  if (path === undefined || path === "") return root
  const keys = path.split(".")
  let owner: unknown = root
  for (const key of keys.slice(0, -1)) owner = (owner as Record<string, unknown> | undefined)?.[key]
  const last = keys.at(-1)!
  if (Array.isArray(owner)) owner[Number(last)] = replacement === undefined ? null : replacement
  else if (typeof owner === "object" && owner !== null) {
    if (replacement === undefined) delete (owner as Record<string, unknown>)[last]
    else (owner as Record<string, unknown>)[last] = replacement
  }
  return root
}
