// A short, stable name for a text, for cache file names: two 32-bit FNV-1a hashes (different
// primes) over the UTF-16 code units, as 16 hex characters. Not node:crypto on purpose: loading it
// costs a worker thread 5-7 ms, more than the whole of a warm module preparation. Nothing relies
// on it for more than naming: cache readers check what they read.
export function fingerprint(text: string): string {
  let first = 0x811c9dc5
  let second = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    first = Math.imul(first ^ unit, 0x01000193)
    second = Math.imul(second ^ unit, 0x5bd1e995)
  }
  return hex(first) + hex(second)
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, "0")
}
