import type {
  CancellationSignal,
  ChatMessage,
  LanguageModel,
  MessagePart,
  ToolCallPart,
  ToolDefinition,
  ToolResultPart,
} from './languageModel';
import { collectReply } from './modelCall';

/** How the model may call tools, and how each call is answered. */
export interface ToolRoundsRequest {
  readonly tools: readonly ToolDefinition[];
  /** Why Council sends the requests (shown by VS Code). */
  readonly justification: string;
  /** Model turns that may call tools. */
  readonly maxRounds: number;
  /** Calls answered per turn; extra calls get a "not run" result. */
  readonly maxCallsPerRound: number;
  /** Answers one call (within the turn's bound); the text goes back to the model as the call's result. */
  readonly answer: (call: ToolCallPart) => string | Promise<string>;
  /** What stands between a call and its result in the transcript. */
  readonly resultSeparator: string;
}

/** What the rounds produced. */
export interface ToolRounds {
  /** The model's notes and each call with its result, as plain text, oldest first. */
  readonly transcript: readonly string[];
  readonly rounds: number;
  /** Calls answered by `answer` (not those over a turn's bound). */
  readonly answered: number;
  /** True when the model still wanted tools after the last allowed round. */
  readonly exhausted: boolean;
}

/**
 * Lets the model call tools for at most `maxRounds` turns, sending each call's answer back as its tool result,
 * and stops at the first turn without tool calls.
 */
export async function runToolRounds(
  model: LanguageModel,
  opening: readonly ChatMessage[],
  request: ToolRoundsRequest,
  token: CancellationSignal,
): Promise<ToolRounds> {
  const { maxRounds, maxCallsPerRound } = request;
  const messages: ChatMessage[] = [...opening];
  const transcript: string[] = [];
  let answered = 0;
  for (let round = 1; round <= maxRounds; round++) {
    const reply = await collectReply(
      model,
      { messages: [...messages], tools: request.tools, toolMode: 'auto', justification: request.justification },
      token,
    );
    if (reply.text.trim()) transcript.push(`Your notes: ${reply.text.trim()}`);
    if (reply.toolCalls.length === 0) return { transcript, rounds: round, answered, exhausted: false };
    const results: ToolResultPart[] = [];
    for (const [index, call] of reply.toolCalls.entries()) {
      const content =
        index < maxCallsPerRound
          ? await request.answer(call)
          : `Not run: at most ${maxCallsPerRound} tool calls per turn.`;
      transcript.push(
        `${call.name}(${JSON.stringify(call.input ?? {})}) returned:${request.resultSeparator}${content}`,
      );
      results.push({ kind: 'toolResult', callId: call.callId, content });
    }
    answered += Math.min(reply.toolCalls.length, maxCallsPerRound);
    const assistant: MessagePart[] = [
      ...(reply.text ? [{ kind: 'text' as const, text: reply.text }] : []),
      ...reply.toolCalls,
    ];
    messages.push({ role: 'assistant', content: assistant }, { role: 'user', content: results });
  }
  return { transcript, rounds: maxRounds, answered, exhausted: true };
}
