/**
 * The message Bun's JSON.parse (JavaScriptCore) gives for invalid JSON, which opencode passes to
 * the model inside the `invalid` tool's text. Node's V8 words its errors differently, so we find the
 * first error the way JavaScriptCore's parser meets it. Observed texts: the `json-errors` golden.
 * Returns undefined for valid JSON.
 *
 * Hand-written on purpose (measured): no JSON library words its errors as JavaScriptCore does
 * (V8's JSON.parse, and jsonc-parser, kept for opencode.json, which gives codes and offsets, not
 * texts), and the model reads these words: the golden's texts, recorded from the real binary,
 * are what this parser is checked against (test/golden/json-errors.json, test/cli/run.test.ts).
 */
export function jsonParseErrorMessage(text: string): string | undefined {
  try {
    new Parser(text).parseDocument()
    return undefined
  } catch (error) {
    if (error instanceof JsonSyntaxError) return `JSON Parse error: ${error.message}`
    throw error
  }
}

// --- internal ---

class JsonSyntaxError extends Error {}

type Token =
  | { kind: "punctuator"; text: "{" | "}" | "[" | "]" | "," | ":" }
  | { kind: "string" | "number" | "keyword" | "identifier"; text: string }
  | { kind: "eof"; text: "" }

class Parser {
  private position = 0
  constructor(private readonly text: string) {}

  parseDocument(): void {
    this.parseValue(this.next())
    if (this.next().kind !== "eof") throw new JsonSyntaxError("Unable to parse JSON string")
  }

  private parseValue(token: Token): void {
    if (token.kind === "string" || token.kind === "number" || token.kind === "keyword") return
    if (token.kind === "identifier") throw new JsonSyntaxError(`Unexpected identifier "${token.text}"`)
    if (token.kind === "eof") throw new JsonSyntaxError("Unexpected EOF")
    if (token.text === "{") {
      this.parseObject()
      return
    }
    if (token.text === "[") {
      this.parseArray()
      return
    }
    throw new JsonSyntaxError(`Unexpected token '${token.text}'`)
  }

  private parseObject(): void {
    let token = this.next()
    if (token.text === "}" && token.kind === "punctuator") return
    if (token.kind !== "string") throw new JsonSyntaxError("Expected '}'")
    while (true) {
      if (!this.isPunctuator(this.next(), ":")) {
        throw new JsonSyntaxError("Expected ':' before value in object property definition")
      }
      this.parseValue(this.next())
      token = this.next()
      if (this.isPunctuator(token, "}")) return
      if (!this.isPunctuator(token, ",")) throw new JsonSyntaxError("Expected '}'")
      if (this.next().kind !== "string") throw new JsonSyntaxError("Property name must be a string literal")
    }
  }

  private parseArray(): void {
    let token = this.next()
    if (this.isPunctuator(token, "]")) return
    while (true) {
      this.parseValue(token)
      token = this.next()
      if (this.isPunctuator(token, "]")) return
      if (!this.isPunctuator(token, ",")) throw new JsonSyntaxError("Expected ']'")
      token = this.next()
      if (this.isPunctuator(token, "]")) throw new JsonSyntaxError("Unexpected comma at the end of array expression")
    }
  }

  private isPunctuator(token: Token, text: string): boolean {
    return token.kind === "punctuator" && token.text === text
  }

  private next(): Token {
    const text = this.text
    while (this.position < text.length && " \t\n\r".includes(text[this.position]!)) this.position++
    if (this.position >= text.length) return { kind: "eof", text: "" }
    const character = text[this.position]!
    if ("{}[],:".includes(character)) {
      this.position++
      return { kind: "punctuator", text: character as "{" }
    }
    if (character === '"') return this.string()
    if (character === "'") throw new JsonSyntaxError("Single quotes (') are not allowed in JSON")
    if (character === "-" || isDigit(character)) return this.number()
    for (const keyword of ["true", "false", "null"]) {
      if (text.startsWith(keyword, this.position)) {
        this.position += keyword.length
        return { kind: "keyword", text: keyword }
      }
    }
    const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(this.position))
    if (identifier) {
      this.position += identifier[0].length
      return { kind: "identifier", text: identifier[0] }
    }
    const codePoint = String.fromCodePoint(text.codePointAt(this.position)!)
    throw new JsonSyntaxError(`Unrecognized token '${codePoint}'`)
  }

  private string(): Token {
    const start = this.position
    this.position++
    while (this.position < this.text.length) {
      const character = this.text[this.position]!
      if (character === '"') {
        this.position++
        return { kind: "string", text: this.text.slice(start, this.position) }
      }
      if (character < " ") break
      if (character === "\\") {
        const escaped = this.text[this.position + 1]
        if (escaped === undefined) break
        if (escaped === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.position + 2, this.position + 6))) {
            const sequence = this.text.slice(this.position, this.position + 6)
            throw new JsonSyntaxError(`"${sequence}" is not a valid unicode escape`)
          }
          this.position += 6
          continue
        }
        if (!'"\\/bfnrt'.includes(escaped)) throw new JsonSyntaxError(`Invalid escape character ${escaped}`)
        this.position += 2
        continue
      }
      this.position++
    }
    throw new JsonSyntaxError("Unterminated string")
  }

  private number(): Token {
    const text = this.text
    const start = this.position
    if (text[this.position] === "-") this.position++
    if (!isDigit(text[this.position])) throw new JsonSyntaxError("Invalid number")
    if (text[this.position] === "0") this.position++
    else while (isDigit(text[this.position])) this.position++
    if (text[this.position] === ".") {
      this.position++
      if (!isDigit(text[this.position])) throw new JsonSyntaxError("Invalid digits after decimal point")
      while (isDigit(text[this.position])) this.position++
    }
    const exponent = /^[eE][+-]?[0-9]+/.exec(text.slice(this.position))
    if (exponent) this.position += exponent[0].length
    return { kind: "number", text: text.slice(start, this.position) }
  }
}

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= "0" && character <= "9"
}
