// Where the module loader of this thread can be found by the helper that prepared modules import
// (_import-meta.ts). A global, because the helper is a file of its own, loaded by Node, while the
// loader may live in a bundle (an engine's process) or in this package's own modules.

/** Prepares a file and the project files it imports; resolves to the URL to import. */
export type Preparer = (file: string) => Promise<string>

export type Loader = {
  resolveSpecifier: (specifier: string, parentURL: string) => string
  preparerFor: (generation: number) => Preparer
}

const KEY = Symbol.for("@opencode-ai/tool-tester/loader")

export function registerLoader(loader: Loader): void {
  ;(globalThis as Record<symbol, unknown>)[KEY] = loader
}

export function registeredLoader(): Loader {
  const loader = (globalThis as Record<symbol, unknown>)[KEY] as Loader | undefined
  if (!loader) throw new Error("a prepared module ran without tool-tester's module loader in its thread")
  return loader
}
