import type { CancellationSignal, ChatMessage, LanguageModel } from './languageModel';
import { collectReply } from './modelCall';

/**
 * Asks for a free-text reply and returns it whole; `onText` sees each chunk as it streams
 * (for showing progress). Throws CancelledError or LanguageModelFailure like requestStructured.
 */
export async function streamText(
  model: LanguageModel,
  messages: readonly ChatMessage[],
  token: CancellationSignal,
  onText?: (chunk: string) => void,
): Promise<string> {
  const reply = await collectReply(model, { messages }, token, { onText });
  return reply.text;
}
