import type {
  CancellationSignal,
  ChatMessage,
  LanguageModel,
  MessagePart,
  ToolCallPart,
  ToolResultPart,
} from '../../llm/languageModel';
import { collectReply } from '../../llm/modelCall';
import type { UsageMeter } from '../../llm/usage';
import type { HistorySnapshot } from '../history/historyStore';
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
  readonly rounds: number;
  readonly toolCalls: number;
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
  usage?: UsageMeter,
): Promise<ToolLoopResult> {
  const messages: ChatMessage[] = [...opening];
  const findings: string[] = [];
  let toolCalls = 0;
  for (let round = 1; round <= limits.maxRounds; round++) {
    const reply = await collectReply(
      model,
      {
        messages: [...messages],
        tools: tools.map(tool => tool.definition),
        toolMode: 'auto',
        justification: 'Council reads the run history to get a stuck agent going again.',
      },
      token,
      { usage },
    );
    if (reply.text.trim()) findings.push(`Your notes: ${reply.text.trim()}`);
    if (reply.toolCalls.length === 0) return { findings, rounds: round, toolCalls, exhausted: false };
    const results: ToolResultPart[] = reply.toolCalls.map((call, index) => {
      const content =
        index < limits.maxCallsPerRound
          ? runCall(call, tools, history, limits)
          : `Not run: at most ${limits.maxCallsPerRound} tool calls per turn.`;
      findings.push(`${call.name}(${JSON.stringify(call.input ?? {})}) returned: ${content}`);
      return { kind: 'toolResult', callId: call.callId, content };
    });
    toolCalls += Math.min(reply.toolCalls.length, limits.maxCallsPerRound);
    const assistantParts: MessagePart[] = [
      ...(reply.text ? [{ kind: 'text' as const, text: reply.text }] : []),
      ...reply.toolCalls,
    ];
    messages.push({ role: 'assistant', content: assistantParts }, { role: 'user', content: results });
  }
  return { findings, rounds: limits.maxRounds, toolCalls, exhausted: true };
}
