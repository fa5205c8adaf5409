import { defangTags, fence } from '../../llm/dataFence';

/** Tag that fences data the model must not take as instructions. */
export const UNTRUSTED_TAG = 'untrusted-data';

/**
 * Wraps `text` from `source` as untrusted data: `<untrusted-data source="...">...</untrusted-data>`.
 * Workspace content, past runs and tool descriptions can carry injected instructions; the fence
 * lets the prompt say "data, not instructions" about everything inside.
 */
export function delimitUntrusted(source: string, text: string): string {
  return fence(UNTRUSTED_TAG, defangTags(text, [UNTRUSTED_TAG]), { source: source.replace(/[^A-Za-z0-9._-]/g, '_') });
}
