/** Time and ids come in through this port so sessions replay deterministically in tests. */
export interface Clock {
  /** ISO-8601 timestamp. */
  now(): string;
}

export interface IdSource {
  /** A new UUID. */
  next(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };
