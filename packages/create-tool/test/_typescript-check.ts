// The templates' `tsc` runs, for many generated projects in one TypeScript instance: each project
// is its own program with its own options, as `tsc -p` makes it, but the files they share (the
// standard library, @types/node, @types/bun, all linked to the same workspace copies) are read and
// parsed once. Diagnostics are formatted as tsc prints them.
import path from "node:path"
import ts from "typescript"

export type TscRun = {
  /** What `tsc` would print (empty when there is nothing to say). */
  output: string
  /** tsc's exit status: 0 without errors. */
  code: number
}

export class TypeScriptChecker {
  readonly #parsed = new Map<string, ts.SourceFile>()

  /** `tsc -p PROJECT` (PROJECT a tsconfig file), emitting unless the config says noEmit. */
  project(tsconfig: string): TscRun {
    const config = ts.getParsedCommandLineOfConfigFile(
      tsconfig,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )
    if (config === undefined) return { output: `cannot read ${tsconfig}`, code: 1 }
    const host = this.#host(config.options)
    host.getCurrentDirectory = () => path.dirname(tsconfig)
    return this.#run(config.fileNames, config.options, host, config.errors)
  }

  /** `tsc FLAGS... FILES...` run in `cwd`. */
  files(flags: readonly string[], files: readonly string[], cwd: string): TscRun {
    const parsed = ts.parseCommandLine([...flags, ...files])
    const host = this.#host(parsed.options)
    // tsc finds `--types` from the folder it runs in.
    host.getCurrentDirectory = () => cwd
    return this.#run(parsed.fileNames, parsed.options, host, parsed.errors)
  }

  #run(
    rootNames: string[],
    options: ts.CompilerOptions,
    host: ts.CompilerHost,
    errors: readonly ts.Diagnostic[],
  ): TscRun {
    const program = ts.createProgram({ rootNames, options, host })
    const emitted = options.noEmit ? [] : program.emit().diagnostics
    const diagnostics = [...errors, ...ts.getPreEmitDiagnostics(program), ...emitted]
    const output = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (file) => file,
      getCurrentDirectory: () => host.getCurrentDirectory(),
      getNewLine: () => "\n",
    })
    return {
      output,
      code: diagnostics.some((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error) ? 2 : 0,
    }
  }

  /** A compiler host that parses each declaration file once (per parse options) for every program. */
  #host(options: ts.CompilerOptions): ts.CompilerHost {
    const host = ts.createCompilerHost(options, true)
    const getSourceFile = host.getSourceFile.bind(host)
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
      if (!fileName.endsWith(".d.ts")) return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate)
      const real = host.realpath?.(fileName) ?? fileName
      const key = `${real}\0${JSON.stringify(languageVersionOrOptions)}`
      let file = this.#parsed.get(key)
      if (file === undefined) {
        file = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate)
        if (file !== undefined) this.#parsed.set(key, file)
      }
      return file
    }
    return host
  }
}
