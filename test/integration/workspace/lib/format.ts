export function format(n: number): string {
  return n.toFixed(2);
}
