// A form built from the tool's JSON Schema (as the openai-compatible provider receives it): a
// field per property, with enums as selects, numbers, booleans, arrays with add/remove, nested
// objects, and optional fields that are left out of the call until switched on.
import { useEffect, useState } from "preact/hooks"
import { html } from "./html.ts"
import { LongText } from "./long-text.ts"
import type { JsonSchema } from "./types.ts"

type FieldProps = {
  schema: JsonSchema
  value: unknown
  onChange: (value: unknown) => void
  path: string
  /** Makes the field ids unique on the page, which holds every tool's form at once. */
  idPrefix: string
}

/**
 * The value a new field starts with: its default, else the empty value of its type, moved inside
 * the schema's bounds (an integer with `min(1)` starts at 1, a list with `min(2)` with two items),
 * so that a fresh form is a valid call.
 */
export function initialValue(schema: JsonSchema): unknown {
  const resolved = resolve(schema)
  if (resolved.default !== undefined) return resolved.default
  if (resolved.const !== undefined) return resolved.const
  if (resolved.enum) return resolved.enum[0]
  // A union (edited as JSON) starts as its first option would: a value the schema accepts.
  const options = resolved.anyOf ?? resolved.oneOf
  if (options && options.length > 0 && typeOf(resolved) === undefined) return initialValue(options[0]!)
  switch (typeOf(resolved)) {
    case "object": {
      const value: Record<string, unknown> = {}
      for (const name of resolved.required ?? []) {
        const property = resolved.properties?.[name]
        if (property) value[name] = initialValue(property)
      }
      return value
    }
    case "array":
      // A tuple: a value for each position, each of its own type.
      if (resolved.prefixItems) return resolved.prefixItems.map(initialValue)
      return Array.from({ length: resolved.minItems ?? 0 }, () => initialValue(resolved.items ?? {}))
    case "boolean":
      return false
    case "number":
    case "integer":
      return numberWithin(resolved, typeOf(resolved) === "integer")
    case "string":
      return "a".repeat(resolved.minLength ?? 0)
    default:
      return null
  }
}

/** 0, or the number nearest to it that the schema's bounds allow. */
function numberWithin(schema: JsonSchema, integer: boolean): number {
  const step = integer ? 1 : 0.5
  if (schema.minimum !== undefined && schema.minimum > 0) return integer ? Math.ceil(schema.minimum) : schema.minimum
  if (schema.exclusiveMinimum !== undefined && schema.exclusiveMinimum >= 0) {
    return integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum + step
  }
  if (schema.maximum !== undefined && schema.maximum < 0) return integer ? Math.floor(schema.maximum) : schema.maximum
  if (schema.exclusiveMaximum !== undefined && schema.exclusiveMaximum <= 0) {
    return integer ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.exclusiveMaximum - step
  }
  return 0
}

/** A field, with a `null` box in front when the schema allows null (the model may send it). */
export function SchemaField(props: FieldProps): unknown {
  if (!nullable(props.schema)) return fieldOf(props)
  const { schema, value, onChange, path } = props
  return html`<div class="nullable">
    <label class="null"><input type="checkbox" data-null=${path} aria-label=${`send null for ${path || "the arguments"}`}
      checked=${value === null}
      onChange=${(event: Event) => onChange((event.target as HTMLInputElement).checked ? null : initialValue(schema))} /> null</label>
    ${value === null ? null : fieldOf(props)}
  </div>`
}

// --- internal ---

function fieldOf({ schema, value, onChange, path, idPrefix }: FieldProps): unknown {
  const resolved = resolve(schema)
  const type = typeOf(resolved)
  const id = fieldId(idPrefix, path)
  // Array items have no label of their own: they are named by their path.
  const label = /\.\d+$/.test(path) ? `item ${path}` : undefined
  if (resolved.enum) {
    const index = resolved.enum.indexOf(value)
    return html`<select id=${id} data-field=${path} aria-label=${label} value=${String(index)}
      onChange=${(event: Event) => onChange(resolved.enum![Number((event.target as HTMLSelectElement).value)])}>
      ${resolved.enum.map((option, position) => html`<option value=${String(position)}>${JSON.stringify(option)}</option>`)}
    </select>`
  }
  switch (type) {
    case "boolean":
      return html`<input id=${id} data-field=${path} aria-label=${label} type="checkbox" checked=${value === true}
        onChange=${(event: Event) => onChange((event.target as HTMLInputElement).checked)} />`
    case "number":
    case "integer":
      return html`<${NumberField} schema=${resolved} value=${value} onChange=${onChange} path=${path} idPrefix=${idPrefix} />`
    case "string":
      return html`<input id=${id} data-field=${path} aria-label=${label} type="text" value=${typeof value === "string" ? value : ""}
        onInput=${(event: Event) => onChange((event.target as HTMLInputElement).value)} />`
    case "array":
      // A tuple's positions differ in type: typed as JSON, as a union is.
      if (resolved.prefixItems)
        return html`<${JsonField} schema=${resolved} value=${value} onChange=${onChange} path=${path} idPrefix=${idPrefix} />`
      return ArrayField({ schema: resolved, value, onChange, path, idPrefix })
    case "object":
      return ObjectField({ schema: resolved, value, onChange, path, idPrefix })
    default:
      return html`<${JsonField} schema=${resolved} value=${value} onChange=${onChange} path=${path} idPrefix=${idPrefix} />`
  }
}

function ObjectField({ schema, value, onChange, path, idPrefix }: FieldProps): unknown {
  const object = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>
  const required = new Set(schema.required ?? [])
  const properties = Object.entries(schema.properties ?? {})
  if (properties.length === 0 && path !== "")
    return html`<${JsonField} schema=${schema} value=${value} onChange=${onChange} path=${path} idPrefix=${idPrefix} />`
  const set = (name: string, next: unknown) => {
    const copy = { ...object }
    if (next === undefined) delete copy[name]
    else copy[name] = next
    onChange(copy)
  }
  return html`<div class="object">
    ${properties.map(([name, property]) => {
      const fieldPath = path === "" ? name : `${path}.${name}`
      const included = required.has(name) || name in object
      return html`<div class="field" key=${name}>
        <label for=${fieldId(idPrefix, fieldPath)}>
          ${
            required.has(name)
              ? null
              : html`<input type="checkbox" class="include" data-include=${fieldPath} title="send this optional field"
                  aria-label=${`send ${fieldPath}`}
                  checked=${included} onChange=${(event: Event) =>
                    set(name, (event.target as HTMLInputElement).checked ? initialValue(property) : undefined)} />`
          }
          <span class="name">${name}</span>
          <span class="type">${describe(property)}${required.has(name) ? "" : ` (optional${defaultNote(property)})`}</span>
        </label>
        ${property.description ? html`<${LongText} className="hint" text=${property.description} />` : null}
        ${included ? html`<${SchemaField} schema=${property} value=${object[name]} path=${fieldPath} idPrefix=${idPrefix} onChange=${(next: unknown) => set(name, next)} />` : null}
      </div>`
    })}
  </div>`
}

function ArrayField({ schema, value, onChange, path, idPrefix }: FieldProps): unknown {
  const items = Array.isArray(value) ? value : []
  const itemSchema = schema.items ?? {}
  return html`<div class="array">
    ${items.map(
      (item, index) => html`<div class="item" key=${index}>
        <${SchemaField} schema=${itemSchema} value=${item} path=${`${path}.${index}`} idPrefix=${idPrefix}
          onChange=${(next: unknown) => onChange(items.map((old, position) => (position === index ? next : old)))} />
        <button type="button" class="small" aria-label=${`remove item ${path}.${index}`}
          onClick=${() => onChange(items.filter((_, position) => position !== index))}>remove</button>
      </div>`,
    )}
    <button type="button" class="small" data-add=${path} aria-label=${`add item to ${path}`} onClick=${() => onChange([...items, initialValue(itemSchema)])}>add item</button>
  </div>`
}

/**
 * A number or an integer. Its text is its own: a field left empty, or text that is no number
 * (`1e`, `-`), is marked invalid and the form refuses to run while it is, as for a field of JSON
 * that does not parse: the call would otherwise go without the key (a required one included) or
 * with a number the field does not show. A value set from outside (a history entry put back)
 * replaces the text.
 */
function NumberField({ schema, value, onChange, path, idPrefix }: FieldProps): unknown {
  const shown = typeof value === "number" ? String(value) : ""
  const [text, setText] = useState(shown)
  // The browser's own word for text that is no number: the input's value is then "".
  const [badInput, setBadInput] = useState(false)
  useEffect(() => {
    if (text === "" || Number(text) !== value) {
      setText(shown)
      setBadInput(false)
    }
  }, [shown])
  const id = fieldId(idPrefix, path)
  const problem = text !== "" ? undefined : badInput ? "not a number" : "empty: type a number"
  return html`<input id=${id} data-field=${path} aria-label=${/\.\d+$/.test(path) ? `item ${path}` : undefined}
    type="number" step=${typeOf(schema) === "integer" ? "1" : "any"} min=${schema.minimum} max=${schema.maximum} value=${text}
    aria-invalid=${problem ? "true" : undefined} aria-describedby=${problem ? `${id}-problem` : undefined}
    data-refusal=${problem ? 'needs a number: type one, or use "JSON" or "raw text" to send the arguments as you want them' : undefined}
    onInput=${(event: Event) => {
      const input = event.target as HTMLInputElement
      setText(input.value)
      setBadInput(input.validity.badInput)
      if (input.value !== "") onChange(Number(input.value))
    }} />
    ${problem ? html`<div class="problem error" id=${`${id}-problem`} data-field-problem=${path}>${problem}</div>` : null}`
}

/**
 * A value the form cannot describe (a union, any): edited as JSON. The text is the field's own
 * until it parses; a value set from outside (a history entry put back) replaces it. Text that does
 * not parse is marked invalid, and the form refuses to run while it is: the call would otherwise
 * go with the last value that parsed, which is not what the field shows.
 */
function JsonField({ value, onChange, path, idPrefix }: FieldProps): unknown {
  const shown = JSON.stringify(value ?? null)
  const [text, setText] = useState(shown)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (parsedText(text) !== shown) {
      setText(shown)
      setProblem(undefined)
    }
  }, [shown])
  const id = fieldId(idPrefix, path)
  return html`<textarea class="json" id=${id} data-field=${path} rows="3" value=${text}
    aria-label=${/\.\d+$/.test(path) ? `item ${path} as JSON` : undefined}
    aria-invalid=${problem ? "true" : undefined} aria-describedby=${problem ? `${id}-problem` : undefined}
    data-refusal=${problem ? 'is not JSON: fix it, or use "raw text" to send text that is not JSON as a model would' : undefined}
    onInput=${(event: Event) => {
      const typed = (event.target as HTMLTextAreaElement).value
      setText(typed)
      try {
        const parsed: unknown = JSON.parse(typed)
        setProblem(undefined)
        onChange(parsed)
      } catch (error) {
        setProblem(`not JSON: ${(error as Error).message}`)
      }
    }}></textarea>
    ${problem ? html`<div class="problem error" id=${`${id}-problem`} data-json-problem=${path}>${problem}</div>` : null}`
}

/** The text's value as JSON text, to compare with the field's; undefined when it does not parse. */
function parsedText(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text) ?? null)
  } catch {
    return undefined
  }
}

/** An id no other field on the page has: the form's prefix and the path, which may hold any character. */
function fieldId(prefix: string, path: string): string {
  return `${prefix}-field-${encodeURIComponent(path)}`
}

/** Whether the schema accepts null: anyOf [..., null], or a type list with "null". */
function nullable(schema: JsonSchema): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes("null")
  return schema.anyOf?.some((option) => option.type === "null") ?? false
}

/** A nullable type (anyOf [T, null]) is edited as T. */
function resolve(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf?.filter((option) => option.type !== "null")
  if (options?.length === 1) return { ...options[0], description: schema.description ?? options[0]!.description }
  return schema
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== "null")
  if (schema.type) return schema.type
  if (schema.properties) return "object"
  return undefined
}

function describe(schema: JsonSchema): string {
  return nullable(schema) ? `${describeType(schema)} | null` : describeType(schema)
}

function describeType(schema: JsonSchema): string {
  const resolved = resolve(schema)
  if (resolved.enum) return resolved.enum.map((option) => JSON.stringify(option)).join(" | ")
  if (resolved.const !== undefined) return JSON.stringify(resolved.const)
  const options = resolved.anyOf ?? resolved.oneOf
  if (options && options.length > 0 && typeOf(resolved) === undefined)
    return options
      .filter((option) => option.type !== "null")
      .map(describe)
      .join(" | ")
  const type = typeOf(resolved) ?? "any"
  // A record (z.record): its keys' and its values' types, not a bare "object".
  if (type === "object" && !resolved.properties && typeof resolved.additionalProperties === "object")
    return `record<${resolved.propertyNames ? describe(resolved.propertyNames) : "string"}, ${describe(resolved.additionalProperties)}>`
  if (type === "array" && resolved.prefixItems) return `[${resolved.prefixItems.map(describe).join(", ")}]`
  return type === "array" ? `${typeOf(resolved.items ?? {}) ?? "any"}[]` : type
}

/**
 * An optional field's default, as its label says it: ticked, the field starts with it; left out,
 * the tool gets no value at all, since opencode passes the arguments as the model sent them.
 */
function defaultNote(schema: JsonSchema): string {
  const value = resolve(schema).default
  if (value === undefined) return ""
  const text = JSON.stringify(value)
  return `, default ${text.length > 40 ? `${text.slice(0, 39)}…` : text}`
}
