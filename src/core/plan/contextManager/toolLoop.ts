import type { CancellationSignal, ChatMessage, LanguageModel, ToolCallPart } from '../../llm/languageModel';
import { runToolRounds } from '../../llm/toolRounds';
import type { HistorySnapshot } from '../history/historyItem';
import type { HistoryTool } from '../history/tools/historyTools';
import { clip } from './historyDigest';

/** Bounds of an investigation. */
export interface ToolLoopLimits {
  /** Model turns that may call tools. */
  readonly maxRounds: number;
  /** Calls run per turn; extra calls are answered with a refusal. */
  readonly maxCallsPerRound: number;
  /** Longest tool result sent back; longer ones are clipped with a hint to narrow the query. */
  readonly maxResultChars: number;
}

/** What an investigation produced: a readable transcript and how it ended. */
export interface ToolLoopResult {
  /** The calls made and their results, plus the model's own remarks, as plain text. */
  readonly findings: readonly string[];
  /** True when the model still wanted tools after the last allowed round. */
  readonly exhausted: boolean;
}

function runCall(
  call: ToolCallPart,
  tools: readonly HistoryTool[],
  history: HistorySnapshot,
  limits: ToolLoopLimits,
): string {
  const tool = tools.find(candidate => candidate.definition.name === call.name);
  if (!tool) return `Unknown tool "${call.name}". Available: ${tools.map(t => t.definition.name).join(', ')}.`;
  const outcome = tool.invoke(call.input, history);
  const text = outcome.ok ? JSON.stringify(outcome.response) : outcome.message;
  return text.length > limits.maxResultChars
    ? `${clip(text, limits.maxResultChars)} (truncated: narrow the query or page)`
    : text;
}

/**
 * Lets the model call read-only history tools for at most `maxRounds` turns, answering each call with a
 * tool result, and stops at the first turn without tool calls.
 */
export async function investigateHistory(
  model: LanguageModel,
  opening: readonly ChatMessage[],
  tools: readonly HistoryTool[],
  history: HistorySnapshot,
  limits: ToolLoopLimits,
  token: CancellationSignal,
): Promise<ToolLoopResult> {
  const { transcript, exhausted } = await runToolRounds(
    model,
    opening,
    {
      tools: tools.map(tool => tool.definition),
      justification: 'Council reads the run history to get a stuck agent going again.',
      maxRounds: limits.maxRounds,
      maxCallsPerRound: limits.maxCallsPerRound,
      answer: call => runCall(call, tools, history, limits),
      resultSeparator: ' ',
    },
    token,
  );
  return { findings: transcript, exhausted };
}
