// Every failure a user can cause has a code here, a one-line message that says what to do, and a
// test. Recognise these errors with CreateToolError.isInstance(), not instanceof: a program may load
// two copies of this package.

const marker = Symbol.for("create-tool.error")

export type CreateToolErrorCode =
  /** The command line was wrong: an unknown option, a missing option value, a second NAME. */
  | "USAGE"
  /** Options that cannot go together, such as --global with --plugin. */
  | "CONFLICTING_OPTIONS"
  /** No NAME was given and there is no terminal to ask for one. */
  | "MISSING_NAME"
  /**
   * The tool name is empty, a path, too long, or has characters opencode or a model provider rejects;
   * or a plugin's tool name is `index`, which would make the tools' module its entry module.
   */
  | "INVALID_NAME"
  /** A --plugin NAME is not a valid npm package name. */
  | "INVALID_PACKAGE_NAME"
  /** An --exports entry is not a usable export name, or is given twice. */
  | "INVALID_EXPORT_NAME"
  /** --description is empty. */
  | "INVALID_DESCRIPTION"
  /** --template names no template. */
  | "UNKNOWN_TEMPLATE"
  /** A tool id would replace one of opencode's built-in tools, and neither --force nor a confirmation allowed it. */
  | "BUILTIN_OVERRIDE"
  /**
   * A tool file already in the folder gives one of the new tool ids: the same name in another
   * extension (`weather.js` beside a new `weather.ts`), or a default or named export with that id.
   * Refused even with --force, which replaces files but never deletes one.
   */
  | "DUPLICATE_TOOL_ID"
  /**
   * A file to write, or a folder to make for it (a plugin's package folder), differs only in case
   * from a name already in its folder (`hello.ts` beside `Hello.ts`), which macOS and Windows take
   * for one. Refused even with --force.
   */
  | "CASE_COLLISION"
  /**
   * A file to write exists already, and neither --force nor a confirmation allowed overwriting it; or
   * what is there is a link that leads nowhere, or not a file (a folder), which --force never replaces;
   * or a link that leads nowhere is where a folder must be made.
   */
  | "FILE_EXISTS"
  /** An existing package.json to update is not valid JSON, or (with a test) its `scripts` is not an object. */
  | "INVALID_PACKAGE_JSON"
  /**
   * A folder could not be created or a file could not be written, or a file to replace is read-only
   * (no write bit, which counts for root too, or no permission); nothing was left behind.
   */
  | "UNWRITABLE"
  /** The templates folder is missing from the installation. */
  | "TEMPLATES_NOT_FOUND"
  /**
   * The Node.js running create-tool is older than its `engines` allow. Raised by bin.js before any
   * other module is loaded, so it is printed in the same form but never thrown as a CreateToolError.
   */
  | "UNSUPPORTED_NODE"
  /** The user cancelled a question (Ctrl-C); nothing was written. */
  | "CANCELLED"

export class CreateToolError extends Error {
  readonly code: CreateToolErrorCode
  readonly data: Record<string, unknown> | undefined
  readonly [marker] = true
  override readonly name = "CreateToolError"

  constructor(
    code: CreateToolErrorCode,
    message: string,
    options: { data?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.data = options.data
  }

  static isInstance(value: unknown): value is CreateToolError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true
  }
}
