import type { CancellationSignal, LanguageModel, ModelRequest, ResponsePart } from '../../src/core/llm/languageModel';
import { requestedName } from './scriptedModel';

/**
 * A model that sends the structured requests named in `tools` to `measured` and every other request
 * to `others`: a step under test meets the model being measured, while the steps before and after it
 * are played by a script (so a session reaches the state the step needs).
 */
export function routedModel(measured: LanguageModel, tools: readonly string[], others: LanguageModel): LanguageModel {
  const routed = new Set(tools);
  return {
    id: measured.id,
    name: measured.name,
    family: measured.family,
    vendor: measured.vendor,
    maxInputTokens: measured.maxInputTokens,
    supportsToolCalling: measured.supportsToolCalling,
    sendRequest(request: ModelRequest, token: CancellationSignal): AsyncIterable<ResponsePart> {
      return (routed.has(requestedName(request) ?? '') ? measured : others).sendRequest(request, token);
    },
    countTokens: (text, token) => measured.countTokens(text, token),
  };
}
