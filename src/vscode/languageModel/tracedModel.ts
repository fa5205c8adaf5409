import { withSendRequest, type LanguageModel } from '../../core/llm/languageModel';
import { isSchemaRefusal } from '../../core/llm/modelErrors';
import { messageText } from '../../core/llm/usage';
import type { CouncilLog } from '../log';

/** How much of a provider's refusal the log keeps (it names the keyword it refused, not the user's text). */
const REFUSAL_CHARS = 300;

/**
 * The model, with every prompt and reply written to the log at Trace level only (prompts carry the user's request
 * and code, which the log never shows at the default level), and a request whose tool schema the provider refused
 * noted at Info level: Council then asks for JSON in the reply instead (requestStructured).
 */
export function tracedModel(model: LanguageModel, log: CouncilLog): LanguageModel {
  return withSendRequest(model, async function* (request, token) {
    log.logTrace(`prompt (${request.tools?.map(t => t.name).join(', ') || 'text'})`, () =>
      request.messages.map(m => `[${m.role}] ${messageText(m)}`).join('\n\n'),
    );
    const reply: string[] = [];
    try {
      for await (const part of model.sendRequest(request, token)) {
        if (log.traceEnabled)
          reply.push(part.kind === 'text' ? part.text : `[tool call ${part.name}] ${JSON.stringify(part.input)}`);
        yield part;
      }
    } catch (error) {
      const tools = request.tools?.map(t => t.name) ?? [];
      if (tools.length > 0 && isSchemaRefusal(error)) {
        const said = (error instanceof Error ? error.message : String(error)).slice(0, REFUSAL_CHARS);
        log.info(
          `model=${model.family} refused the tool schema of ${tools.join(', ')}; a structured reply is then asked for as JSON in the reply instead. Provider: ${said}`,
        );
      }
      throw error;
    }
    log.logTrace('reply', () => reply.join(''));
  });
}
