// What the benches print: the median of a sample (the middle value, or the mean of the two middle
// ones), other quantiles, and milliseconds.

export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The value at quantile q (0.9: the 90th percentile); the median for 0.5. */
export function quantile(values: number[], q: number): number {
  if (q === 0.5) return median(values)
  const sorted = [...values].sort((left, right) => left - right)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}

export function ms(value: number, digits = 0): string {
  return `${value.toFixed(digits)} ms`
}
