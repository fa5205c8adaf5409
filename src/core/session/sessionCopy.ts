import { restoreSession, type RestoreResult } from './replay';

/**
 * Which copy of a chat thread's session to continue: workspace storage holds the newest (saved after every
 * step); the copy in the response's metadata is the fallback when storage lost it or cannot read it. A copy in
 * storage saved by a newer Council wins even so: continuing the older metadata copy would save over it.
 * `undefined` when neither copy exists.
 */
export function chooseSessionCopy(
  fromStorage: RestoreResult | undefined,
  fromMetadata: unknown,
): RestoreResult | undefined {
  if (fromStorage?.ok || (fromStorage && fromStorage.reason === 'newer')) return fromStorage;
  if (fromMetadata !== undefined) return restoreSession(fromMetadata);
  return fromStorage;
}
