import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { LanguageModelFailure } from '../core/llm/languageModel';
import { AiSdkModel } from './providers/aiSdkModel';

/*
 * The language-model port over any OpenAI-compatible chat endpoint, for hosts without VS Code (the `council`
 * command). Structured replies go through tool calling with the schemas the core sends, unchanged.
 */

const API_KEY_VARIABLE = 'OPENAI_API_KEY';
const BASE_URL_VARIABLE = 'OPENAI_BASE_URL';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface EndpointSettings {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly modelId: string;
  /** Prompt budget the core plans with; OpenAI-compatible APIs do not say, so it is given. */
  readonly maxInputTokens?: number;
}

/** The endpoint settings from the environment; a missing key names the variable to set. */
export function endpointFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
  modelId: string,
): EndpointSettings {
  const apiKey = environment[API_KEY_VARIABLE]?.trim();
  if (!apiKey) {
    throw new LanguageModelFailure(
      'noPermissions',
      `No API key: set ${API_KEY_VARIABLE} (and ${BASE_URL_VARIABLE} for an endpoint other than OpenAI), or run with --demo.`,
    );
  }
  const baseUrl = environment[BASE_URL_VARIABLE]?.trim() || DEFAULT_BASE_URL;
  return { apiKey, baseUrl, modelId };
}

/** The adapter over one OpenAI-compatible endpoint (OpenAI itself, Ollama, LM Studio, llama.cpp, OpenRouter). */
export class OpenAiCompatibleModel extends AiSdkModel {
  constructor(settings: EndpointSettings, keyVariable = API_KEY_VARIABLE) {
    const provider = createOpenAICompatible({
      name: 'council',
      baseURL: settings.baseUrl,
      apiKey: settings.apiKey,
      includeUsage: true,
    });
    super({
      chat: provider.chatModel(settings.modelId),
      modelId: settings.modelId,
      vendor: settings.baseUrl.startsWith(DEFAULT_BASE_URL) ? 'openai' : 'openai-compatible',
      maxInputTokens: settings.maxInputTokens ?? 128_000,
      keyHint: `${keyVariable} and ${BASE_URL_VARIABLE}`,
    });
  }
}
