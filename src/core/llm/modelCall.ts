import { toModelError } from './modelErrors';
import {
  throwIfCancelled,
  type CancellationSignal,
  type LanguageModel,
  type ModelRequest,
  type ToolCallPart,
} from './languageModel';

/** Everything a model streamed back for one request. */
export interface CollectedReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCallPart[];
}

/** Options shared by the calls that run a model request. */
export interface CallOptions {
  /** Called with each text chunk as it streams in. */
  readonly onText?: (chunk: string) => void;
}

/**
 * Sends one request and gathers the streamed reply. Cancellation throws CancelledError;
 * any other failure is a LanguageModelFailure. What it costs is counted once, by the spending governor
 * the model is paid through.
 */
export async function collectReply(
  model: LanguageModel,
  request: ModelRequest,
  token: CancellationSignal,
  options: CallOptions = {},
): Promise<CollectedReply> {
  throwIfCancelled(token);
  const reply = { text: '', toolCalls: [] as ToolCallPart[] };
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
    throw toModelError(error, token);
  }
  return reply;
}
