import { createRequire } from "node:module"

/**
 * A real `import()`, out of reach of test runners that rewrite dynamic imports (vitest would load
 * the tool through Vite instead of Node, unlike opencode). From source it comes from the build.
 */
export const { nativeImport } = createRequire(import.meta.url)(
  import.meta.url.endsWith(".ts") ? "../../dist/discovery/_native-import.cjs" : "./_native-import.cjs",
) as { nativeImport: (url: string, options?: ImportCallOptions) => Promise<unknown> }
