/** Above this many candidates a suggestion is not worth the quadratic distance cost. */
const MAX_CANDIDATES = 5000;

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known id most like `id` (a likely typo), or undefined when nothing is close enough to suggest. */
export function closestMatch(id: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(2, Math.floor(id.length / 3));
  let best: { readonly candidate: string; readonly distance: number } | undefined;
  let seen = 0;
  for (const candidate of candidates) {
    if (++seen > MAX_CANDIDATES) return undefined;
    const distance = editDistance(id, candidate);
    if (distance <= limit && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
