import { withSendRequest, type LanguageModel } from '../../core/llm/languageModel';
import { messageText } from '../../core/llm/usage';
import type { CouncilLog } from '../log';

/**
 * The model, with every prompt and reply written to the log at Trace level only: prompts carry the
 * user's request and code, which the log never shows at the default level.
 */
export function tracedModel(model: LanguageModel, log: CouncilLog): LanguageModel {
  if (!log.traceEnabled) return model;
  return withSendRequest(model, async function* (request, token) {
    log.logTrace(`prompt (${request.tools?.map(t => t.name).join(', ') || 'text'})`, () =>
      request.messages.map(m => `[${m.role}] ${messageText(m)}`).join('\n\n'),
    );
    const reply: string[] = [];
    for await (const part of model.sendRequest(request, token)) {
      reply.push(part.kind === 'text' ? part.text : `[tool call ${part.name}] ${JSON.stringify(part.input)}`);
      yield part;
    }
    log.logTrace('reply', () => reply.join(''));
  });
}
