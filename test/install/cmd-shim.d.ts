// cmd-shim ships no types: the one call the Windows shim test makes.
declare module "cmd-shim" {
  /** Writes `to`, `to.cmd` and `to.ps1`, each starting the program `from`'s first line names on `from`. */
  export default function cmdShim(from: string, to: string): Promise<void>
}
