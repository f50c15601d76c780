import path from "node:path"

/** A path as a user types it from `cwd`: relative when inside it, absolute otherwise. */
export function displayPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file)
  if (relative === "") return "."
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative
}

/** The message without a leading "<file>: " that the library's messages start with. */
export function withoutFilePrefix(message: string, file: string | undefined): string {
  return file !== undefined && message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message
}
