// A real `import()` that test runners cannot rewrite: loaded with Node's own `require`, so vitest
// does not pass it through Vite, and tool files are loaded by Node, as in production.
function nativeImport(url: string, options?: ImportCallOptions): Promise<unknown> {
  return options === undefined ? import(url) : import(url, options)
}

export = { nativeImport }
