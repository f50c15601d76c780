// A real `import()` that test runners cannot rewrite: loaded with Node's own `require`, so vitest
// does not pass it through Vite, and tool files are loaded by Node with our hooks, as in production.
function nativeImport(url: string): Promise<unknown> {
  return import(url)
}

export = { nativeImport }
