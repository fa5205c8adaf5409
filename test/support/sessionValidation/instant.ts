/** Milliseconds since the epoch of an ISO timestamp, for ordering checks. */
export function instant(timestamp: string): number {
  return Date.parse(timestamp);
}
