// The config's `attachment.image` settings: the limits opencode holds each image a tool returns to
// before the model gets it, and whether it shrinks one over them (docs/opencode-contract.md#attachments).
// What its config schema refuses was observed on the 1.18.34 binary (`tool-tester e2e --config`):
// it does not start.
import { isRecord } from "../_is-record.ts"
import { describeValue, type SettingProblem } from "./_config-value.ts"

export type ImageLimits = {
  /** Shrink an image over the limits (else it is dropped). `auto_resize`, default true. */
  autoResize: boolean
  maxWidth: number
  maxHeight: number
  /** The longest base64 text of an image, in bytes. */
  maxBase64Bytes: number
}

/** The limits opencode reads from a config's `attachment.image`, defaults for what it leaves out. */
export function imageLimits(config: { attachment?: unknown }): ImageLimits {
  const image = isRecord(config.attachment) && isRecord(config.attachment["image"]) ? config.attachment["image"] : {}
  const whole = (key: keyof typeof DEFAULTS) => (isWhole(image[key]) ? (image[key] as number) : DEFAULTS[key])
  return {
    autoResize: typeof image["auto_resize"] === "boolean" ? image["auto_resize"] : true,
    maxWidth: whole("max_width"),
    maxHeight: whole("max_height"),
    maxBase64Bytes: whole("max_base64_bytes"),
  }
}

/**
 * What is wrong with `attachment`, if anything: opencode refuses an `attachment` or an `image` that
 * is no object (null included), an `auto_resize` that is no boolean, and a limit that is not a
 * whole number greater than 0. Other keys are left alone, as opencode leaves them.
 */
export function attachmentProblem(attachment: unknown): SettingProblem | undefined {
  if (attachment === undefined) return undefined
  if (!isRecord(attachment)) return notAnObject("attachment", attachment, '{"image": {"max_width": 2000}}')
  const image = attachment["image"]
  if (image === undefined) return undefined
  if (!isRecord(image)) return notAnObject("attachment.image", image, '{"max_width": 2000, "max_height": 2000}')
  const autoResize = image["auto_resize"]
  if (autoResize !== undefined && typeof autoResize !== "boolean") {
    return {
      key: "attachment.image.auto_resize",
      value: autoResize,
      message: `attachment.image.auto_resize is ${describeValue(autoResize)}, but opencode requires true or false`,
      fix: "set true or false, or remove the key for the default (true)",
    }
  }
  for (const [name, fallback] of Object.entries(DEFAULTS)) {
    const value = image[name]
    if (value === undefined || isWhole(value)) continue
    return {
      key: `attachment.image.${name}`,
      value,
      message: `attachment.image.${name} is ${describeValue(value)}, but opencode requires a whole number greater than 0`,
      fix: `set a positive whole number, or remove the key for the default (${fallback})`,
    }
  }
  return undefined
}

// --- internal ---

const DEFAULTS = { max_width: 2000, max_height: 2000, max_base64_bytes: 5_242_880 } as const

function isWhole(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value > 0
}

function notAnObject(key: string, value: unknown, example: string): SettingProblem {
  return {
    key,
    value,
    message: `${key} is ${describeValue(value)}, but opencode requires an object such as ${example}`,
    fix: "make it an object, or remove it for the defaults",
  }
}
