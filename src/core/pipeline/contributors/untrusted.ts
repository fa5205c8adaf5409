/** Tag that fences data the model must not take as instructions. */
export const UNTRUSTED_TAG = 'untrusted-data';

/** Defangs anything in `text` that looks like our fence, so data cannot close it early or open a new one. */
function defang(text: string): string {
  return text.replace(new RegExp(`<(/?)(${UNTRUSTED_TAG})`, 'gi'), '&lt;$1$2');
}

/**
 * Wraps `text` from `source` as untrusted data: `<untrusted-data source="...">...</untrusted-data>`.
 * Workspace content, past runs and tool descriptions can carry injected instructions; the fence
 * lets the prompt say "data, not instructions" about everything inside.
 */
export function delimitUntrusted(source: string, text: string): string {
  const safeSource = source.replace(/[^A-Za-z0-9._-]/g, '_');
  return `<${UNTRUSTED_TAG} source="${safeSource}">\n${defang(text)}\n</${UNTRUSTED_TAG}>`;
}
