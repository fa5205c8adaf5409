import { toModelError } from './modelErrors';
import {
  LanguageModelFailure,
  throwIfCancelled,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ToolCallPart,
} from './languageModel';
import { countPromptTokens, performanceStopwatch, type Stopwatch, type UsageMeter } from './usage';

/** Everything a model streamed back for one request. */
export interface CollectedReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCallPart[];
}

/** Options shared by the calls that run a model request. */
export interface CallOptions {
  readonly usage?: UsageMeter;
  readonly stopwatch?: Stopwatch;
  /** Called with each text chunk as it streams in. */
  readonly onText?: (chunk: string) => void;
}

function outputLength(reply: { text: string; toolCalls: readonly ToolCallPart[] }): number {
  return reply.toolCalls.reduce((sum, call) => sum + JSON.stringify(call.input ?? null).length, reply.text.length);
}

/**
 * Sends one request and gathers the streamed reply. Cancellation throws CancelledError;
 * any other failure is a LanguageModelFailure. Usage is recorded even for failed calls (they cost too).
 */
export async function collectReply(
  model: LanguageModel,
  request: ModelRequest,
  token: CancellationSignal,
  options: CallOptions = {},
): Promise<CollectedReply> {
  throwIfCancelled(token);
  const stopwatch = options.stopwatch ?? performanceStopwatch;
  const promptTokens = options.usage ? await countPromptTokens(model, request.messages) : 0;
  const started = stopwatch();
  const reply = { text: '', toolCalls: [] as ToolCallPart[] };
  let sent = true;
  try {
    for await (const part of model.sendRequest(request, token)) {
      throwIfCancelled(token);
      if (part.kind === 'text') {
        reply.text += part.text;
        options.onText?.(part.text);
      } else {
        reply.toolCalls.push(part);
      }
    }
    throwIfCancelled(token);
  } catch (error) {
    // A request the spending governor refused was never sent: it costs nothing and is not counted.
    if (error instanceof LanguageModelFailure && error.kind === 'budgetSpent' && outputLength(reply) === 0)
      sent = false;
    throw toModelError(error, token);
  } finally {
    if (sent)
      options.usage?.record({ promptTokens, outputChars: outputLength(reply), latencyMs: stopwatch() - started });
  }
  return reply;
}
