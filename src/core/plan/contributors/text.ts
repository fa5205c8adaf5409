/** Shortens `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= max ? single : `${single.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** The first `max` items joined by ", ", with "and N more" for the rest. */
export function listSome(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
