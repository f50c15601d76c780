import { expect, test } from "vitest"
import { hiddenCharacter, isHidden, printable, quoted } from "../src/printable.ts"

test.each([
  ["plain text, spaces and a\\backslash", "plain text, spaces and a\\backslash"],
  ["héllo wörld 名前 🙂", "héllo wörld 名前 🙂"],
  ["a\u202Eb", "a\\u{202E}b"],
  ["zero\u200Bwidth\u200Cnon\u200Djoiner\u2060", "zero\\u{200B}width\\u{200C}non\\u{200D}joiner\\u{2060}"],
  ["\u2066isolate\u2069 \u200Fmark", "\\u{2066}isolate\\u{2069} \\u{200F}mark"],
  ["\u001b[31mred", "\\u{1B}[31mred"],
  ["del\u007F c1\u0085", "del\\u{7F} c1\\u{85}"],
  ["line\nbreak\r\ttab", "line\\nbreak\\r\\ttab"],
  ["\uFEFFbom", "\\u{FEFF}bom"],
  ["nbsp\u00A0ideographic\u3000", "nbsp\\u{A0}ideographic\\u{3000}"],
  ["sep\u2028\u2029", "sep\\u{2028}\\u{2029}"],
  ["soft\u00ADhyphen", "soft\\u{AD}hyphen"],
  ["filler\u3164 variation\uFE0F", "filler\\u{3164} variation\\u{FE0F}"],
  ["lone \uD800 surrogate", "lone \\u{D800} surrogate"],
  ["private \uE000", "private \\u{E000}"],
  ["tag \u{E0041}", "tag \\u{E0041}"],
])("printable(%j) is %j", (text, shown) => {
  expect(printable(text)).toBe(shown)
})

test("quoted() puts the printable text between double quotes", () => {
  expect(quoted("a\u202Eb")).toBe('"a\\u{202E}b"')
})

test("hiddenCharacter() finds the first character printable() escapes, ignoring spaces", () => {
  expect(hiddenCharacter("my tool")).toBeUndefined()
  expect(hiddenCharacter("a b\u200Bc\u202E")).toBe("\u200B")
  expect(isHidden(" ")).toBe(false)
  expect(isHidden("\u202E")).toBe(true)
})

test("printable() is idempotent: escaping twice changes nothing more", () => {
  const once = printable("a\u202Eb\nc\u001b")
  expect(printable(once)).toBe(once)
})
