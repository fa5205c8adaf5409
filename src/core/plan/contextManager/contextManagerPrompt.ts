import { delimitUntrusted } from '../../llm/dataFence';
import type { ChatMessage } from '../../llm/languageModel';
import type { HistoryItem } from '../history/historyItem';
import type { ContextManagerRequest } from './contextManagerRequest';

/** Shortens a value's JSON for a prompt line; the full item is one tool call away. */
export function clip(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/** One line per item: id, agent, action, outcome and a clipped input/output, for prompts. */
function describeItem(item: HistoryItem, maxChars = 240): string {
  const outcome =
    item.outcome.status === 'succeeded'
      ? `succeeded → ${clip(JSON.stringify(item.outcome.output), maxChars)}`
      : `failed: ${clip(item.outcome.error.message, maxChars)}`;
  return `- ${item.itemId} · ${item.agentId} (${item.agentType}) · ${item.action}(${item.inputType}) · ${item.startedAt} · input ${clip(JSON.stringify(item.input), maxChars)} · ${outcome}`;
}

/** What the opening says the case is, by request type. */
function caseLines(request: ContextManagerRequest): string[] {
  const who = `${request.agentId} (type ${request.agentType})`;
  if (request.type === 'proceed')
    return [
      `Collector ${who} consolidated its stage and asks you to route its result on: ${request.reason}`,
      '',
      'Its consolidation:',
    ];
  if (request.evidence.length > 1) return [`Agent ${who} is stuck: ${request.reason}.`, '', 'The repeated attempts:'];
  return [`Agent ${who} asks for its context to be rebuilt: ${request.reason}`, '', 'Its attempt:'];
}

/**
 * The opening message of the context manager (instructions go in a user message: VS Code drops system messages).
 * With tool calling the model explores on its own; without it, it gets the `inline` recent items.
 */
export function contextManagerPrompt(
  request: ContextManagerRequest,
  inline: readonly HistoryItem[] | undefined,
): ChatMessage[] {
  const lines = [
    'You are the context manager of a multi-agent pipeline (discovery -> planning -> tickets).',
    ...caseLines(request).slice(0, 1),
    `The run's goal: ${request.goal}`,
    ...(request.additionalContext === undefined
      ? []
      : [`The stage was given this feedback: ${delimitUntrusted('feedback', request.additionalContext)}`]),
    ...caseLines(request).slice(1),
    // Items carry agents' inputs and outputs (model text): fenced as data, as every prompt's data is.
    delimitUntrusted('history', request.evidence.map(item => describeItem(item)).join('\n')),
    '',
    inline === undefined
      ? 'Investigate with the history tools: what each attempt was given and produced, what failed, and what upstream context it had. They only read history; history_add_note, when offered, only adds a note on items.'
      : 'Recent history (oldest first):',
    ...(inline === undefined ? [] : [delimitUntrusted('history', inline.map(item => describeItem(item)).join('\n'))]),
    '',
    'Then decide one of:',
    `- route to exactly one of these agent types: ${request.destinations.join(', ')} — with a reconstructed context (goal, summary, what to do differently, the item ids you relied on and the ones to ignore);`,
    '- ask the user one question, when the history cannot resolve what is missing.',
  ];
  return [{ role: 'user', content: lines.join('\n') }];
}

/** The closing request for the decision; `budgetExhausted` says why the investigation ended. */
export function decisionRequest(budgetExhausted: boolean): ChatMessage {
  const lead = budgetExhausted ? 'The tool budget is used up. ' : '';
  return { role: 'user', content: `${lead}Give your routing decision now, based on what you found.` };
}
