import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { LanguageModelFailure } from '../../core/llm/languageModel';
import type { ProviderConfig, ProviderType } from '../config/councilConfig';
import { LOCAL_VENDOR } from '../prices/dollarPrices';
import { AiSdkModel } from './aiSdkModel';
import { CopilotModel } from './copilot/copilotModel';
import { sharedCopilotRuntime } from './copilot/copilotRuntime';
import { findCopilotCli } from './copilot/findCopilotCli';

/*
 * One provider's model as the core's LanguageModel port, through the AI SDK: the key read from the environment
 * variable the provider names (never from a file), a missing one named in the error.
 */

type Environment = Readonly<Record<string, string | undefined>>;

/** Each provider's usual key variable (the one its own SDK reads). */
export const KEY_VARIABLES: Readonly<Record<ProviderType, string | undefined>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
  // A local server (Ollama, LM Studio) takes no key; a hosted one names its variable with apiKeyEnv.
  'openai-compatible': undefined,
  // Copilot CLI's logged-in account.
  copilot: undefined,
};

/** The prompt budget when the config gives none: each family's published context window, OpenAI's smallest. */
const DEFAULT_MAX_INPUT_TOKENS: Readonly<Record<ProviderType, number>> = {
  openai: 128_000,
  anthropic: 200_000,
  google: 1_000_000,
  'openai-compatible': 128_000,
  copilot: 128_000,
};

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface ModelSpec {
  /** The provider's name in the config (or its type when chosen from the environment). */
  readonly providerName: string;
  readonly provider: ProviderConfig;
  readonly modelId: string;
  readonly maxInputTokens?: number;
  /** False: the model takes no tools (structured replies through the provider's JSON mode). */
  readonly toolCalling?: boolean;
}

/** Whether `baseUrl` is on this machine (a local model costs nothing). */
function isLocalEndpoint(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
  } catch {
    return false;
  }
}

/** The key for `spec`'s provider from the environment; a missing one says which variable to set. */
function apiKey(spec: ModelSpec, environment: Environment): string | undefined {
  const variable = spec.provider.apiKeyEnv ?? KEY_VARIABLES[spec.provider.type];
  if (!variable) return undefined;
  const key = environment[variable]?.trim();
  if (!key) {
    throw new LanguageModelFailure(
      'noPermissions',
      `No API key for provider "${spec.providerName}" (${spec.provider.type}, model ${spec.modelId}): set the environment variable ${variable}.`,
    );
  }
  return key;
}

/** The model `spec` names, ready to send requests. */
export function providerModel(spec: ModelSpec, environment: Environment): AiSdkModel | CopilotModel {
  const { provider, modelId } = spec;
  if (provider.type === 'copilot') {
    const cliPath = findCopilotCli(spec.providerName, provider.cliPath, environment);
    return new CopilotModel({
      runtime: sharedCopilotRuntime(cliPath, environment),
      modelId,
      maxInputTokens: spec.maxInputTokens ?? DEFAULT_MAX_INPUT_TOKENS.copilot,
    });
  }
  const key = apiKey(spec, environment);
  const keyVariable = provider.apiKeyEnv ?? KEY_VARIABLES[provider.type];
  const maxInputTokens = spec.maxInputTokens ?? DEFAULT_MAX_INPUT_TOKENS[provider.type];
  const keyHint = `${keyVariable ?? 'the key'} for provider "${spec.providerName}"${provider.baseUrl ? ` and its baseUrl ${provider.baseUrl}` : ''}`;
  const common = { modelId, maxInputTokens, keyHint, ...(spec.toolCalling === false ? { toolCalling: false } : {}) };
  switch (provider.type) {
    case 'anthropic':
      return new AiSdkModel({
        ...common,
        vendor: 'anthropic',
        chat: createAnthropic({ apiKey: key, ...(provider.baseUrl ? { baseURL: provider.baseUrl } : {}) })(modelId),
      });
    case 'google':
      return new AiSdkModel({
        ...common,
        vendor: 'google',
        chat: createGoogleGenerativeAI({ apiKey: key, ...(provider.baseUrl ? { baseURL: provider.baseUrl } : {}) })(
          modelId,
        ),
      });
    case 'openai':
    case 'openai-compatible': {
      const baseURL = provider.baseUrl ?? OPENAI_BASE_URL;
      const chat = createOpenAICompatible({
        name: spec.providerName,
        baseURL,
        ...(key ? { apiKey: key } : {}),
        includeUsage: true,
        // JSON mode sends the schema (response_format json_schema), as OpenAI, Ollama, LM Studio and llama.cpp take it.
        supportsStructuredOutputs: true,
      }).chatModel(modelId);
      const vendor = isLocalEndpoint(baseURL) ? LOCAL_VENDOR : provider.type;
      return new AiSdkModel({ ...common, vendor, chat });
    }
  }
}
