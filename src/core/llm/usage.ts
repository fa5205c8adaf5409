import type { ChatMessage, LanguageModel, MessagePart } from './languageModel';

/** What one model call cost. */
export interface ModelCallCost {
  readonly promptTokens: number;
  readonly outputChars: number;
  readonly latencyMs: number;
}

/** Counts what model calls cost; one meter per chat turn / bench run. */
export interface UsageMeter {
  record(call: ModelCallCost): void;
}

/** A monotonic millisecond clock; injectable so tests can fix latencies. */
export type Stopwatch = () => number;

/** `performance.now` exists in browsers, web workers and Node without imports. */
export const performanceStopwatch: Stopwatch = () => performance.now();

/** A UsageMeter that sums every call it sees (used by the bench and the session log). */
export class UsageTally implements UsageMeter {
  private callCount = 0;
  private promptTokenSum = 0;
  private outputCharSum = 0;
  private latencySum = 0;

  /** Number of model calls recorded. */
  get calls(): number {
    return this.callCount;
  }
  /** Sum of prompt tokens over all calls. */
  get promptTokens(): number {
    return this.promptTokenSum;
  }
  /** Sum of characters the model produced (text plus tool-call input JSON). */
  get outputChars(): number {
    return this.outputCharSum;
  }
  /** Sum of wall-clock latency of all calls, in milliseconds. */
  get totalLatencyMs(): number {
    return this.latencySum;
  }

  record(call: ModelCallCost): void {
    this.callCount += 1;
    this.promptTokenSum += call.promptTokens;
    this.outputCharSum += call.outputChars;
    this.latencySum += call.latencyMs;
  }

  /** A plain snapshot, for logs and bench reports. */
  toJSON(): { calls: number; promptTokens: number; outputChars: number; totalLatencyMs: number } {
    return {
      calls: this.calls,
      promptTokens: this.promptTokens,
      outputChars: this.outputChars,
      totalLatencyMs: this.totalLatencyMs,
    };
  }
}

function partText(part: MessagePart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'toolCall':
      return `${part.name} ${JSON.stringify(part.input)}`;
    case 'toolResult':
      return part.content;
  }
}

/** The text of a message as a tokenizer would see it. */
export function messageText(message: ChatMessage): string {
  return typeof message.content === 'string' ? message.content : message.content.map(partText).join('\n');
}

/** Prompt tokens of a message list, counted by the model's own tokenizer. */
export async function countPromptTokens(model: LanguageModel, messages: readonly ChatMessage[]): Promise<number> {
  const counts = await Promise.all(messages.map(message => model.countTokens(messageText(message))));
  return counts.reduce((sum, n) => sum + n, 0);
}
