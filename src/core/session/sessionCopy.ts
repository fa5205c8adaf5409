import { restoreSession, type RestoreResult } from './replay';

/** The copy of a thread's session to go on from, and where it came from. */
export interface SessionCopy {
  readonly result: RestoreResult;
  /**
   * Set when storage holds a copy that cannot be read and the chat's copy is used instead: why storage's failed.
   * The chat's copy may be older (it is written when a response ends; storage after every step), so the user
   * must choose whether to go on from it.
   */
  readonly damagedStorage?: string;
}

/**
 * Which copy of a chat thread's session to continue: workspace storage holds the newest (saved after every
 * step); the copy in the response's metadata is the fallback when storage lost it or cannot read it. A copy in
 * storage saved by a newer Council wins even so: continuing the older metadata copy would save over it.
 * `undefined` when neither copy exists.
 */
export function chooseSessionCopy(
  fromStorage: RestoreResult | undefined,
  fromMetadata: unknown,
): SessionCopy | undefined {
  if (fromStorage?.ok || (fromStorage && fromStorage.reason === 'newer')) return { result: fromStorage };
  if (fromMetadata === undefined) return fromStorage && { result: fromStorage };
  const result = restoreSession(fromMetadata);
  return fromStorage && !fromStorage.ok && result.ok ? { result, damagedStorage: fromStorage.error } : { result };
}
