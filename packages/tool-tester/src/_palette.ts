// The colours a text report paints with: kleur's (which honour NO_COLOR) when asked, else none, so
// one report function writes both the terminal's text and the plain text of `--json`-less pipes.
import { bold, cyan, dim, green, red, yellow } from "kleur/colors"

export type Paint = (text: string) => string

export interface Palette {
  bold: Paint
  cyan: Paint
  dim: Paint
  green: Paint
  red: Paint
  yellow: Paint
}

const identity: Paint = (text) => text
const plain: Palette = {
  bold: identity,
  cyan: identity,
  dim: identity,
  green: identity,
  red: identity,
  yellow: identity,
}
const colored: Palette = { bold, cyan, dim, green, red, yellow }

export function palette(color: boolean): Palette {
  return color ? colored : plain
}
