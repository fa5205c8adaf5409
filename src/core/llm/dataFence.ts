/**
 * Prompt-injection hygiene shared by every prompt: text a user, a file or a model wrote goes inside
 * a tagged block, and nothing inside may open or close one of the tags that fence data.
 */

/** `text` with anything that looks like one of `tags` (opening or closing) neutralised. */
export function defangTags(text: string, tags: readonly string[]): string {
  const lookalike = new RegExp(`<(/?)(${tags.map(t => t.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})\\b`, 'gi');
  return text.replace(lookalike, (_match, slash: string, tag: string) => `&lt;${slash}${tag}`);
}

/** `<tag a="…">\ntext\n</tag>`, attribute values stripped of quotes, brackets and newlines. */
export function fence(tag: string, text: string, attrs: Readonly<Record<string, string | number>> = {}): string {
  const attributes = Object.entries(attrs)
    .map(([key, value]) => ` ${key}="${String(value).replace(/["<>\n]/g, ' ')}"`)
    .join('');
  return `<${tag}${attributes}>\n${text}\n</${tag}>`;
}

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
