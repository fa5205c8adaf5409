import type { HistoryItem } from '../history/historyItem';

/** Shortens a value's JSON for a prompt line; the full item is one tool call away. */
export function clip(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/** One line per item: id, agent, action, outcome and a clipped input/output, for prompts. */
export function describeItem(item: HistoryItem, maxChars = 240): string {
  const outcome =
    item.outcome.status === 'succeeded'
      ? `succeeded → ${clip(JSON.stringify(item.outcome.output), maxChars)}`
      : `failed: ${clip(item.outcome.error.message, maxChars)}`;
  return `- ${item.itemId} · ${item.agentId} (${item.agentType}) · ${item.action}(${item.inputType}) · ${item.startedAt} · input ${clip(JSON.stringify(item.input), maxChars)} · ${outcome}`;
}
