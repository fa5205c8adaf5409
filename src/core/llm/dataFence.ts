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
