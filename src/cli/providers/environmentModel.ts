import type { ProviderType } from '../config/councilConfig';
import { KEY_VARIABLES, type ModelSpec } from './providerModels';

/*
 * With no config file, the providers' usual environment variables choose the provider, and `--model` the model.
 * OpenAI first (with OPENAI_BASE_URL, any OpenAI-compatible endpoint), then Anthropic, then Google; a `--model`
 * of a family whose key is set (claude-…, gemini-…) picks that family's provider.
 */

type Environment = Readonly<Record<string, string | undefined>>;

/** The model each provider uses when `--model` names none: a cheap one that calls tools well. */
const DEFAULT_MODELS: Readonly<Record<Exclude<ProviderType, 'openai-compatible' | 'copilot'>, string>> = {
  openai: 'gpt-5-mini',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-flash',
};

const ORDER = ['openai', 'anthropic', 'google'] as const;

/** Which family a model id belongs to, by its name. */
function familyOf(modelId: string): (typeof ORDER)[number] | undefined {
  if (/^claude/i.test(modelId)) return 'anthropic';
  if (/^gemini/i.test(modelId)) return 'google';
  if (/^(gpt|o\d)/i.test(modelId)) return 'openai';
  return undefined;
}

export const NO_MODEL_HELP =
  'set OPENAI_API_KEY (with OPENAI_BASE_URL for any OpenAI-compatible endpoint such as Ollama or LM Studio), ANTHROPIC_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY, and --model <id>; or write .council/config.json (see the README; a "copilot" provider runs on Copilot models through a logged-in Copilot CLI); or run with --demo for the scripted demo council';

/** The provider and model the environment and `--model` choose; undefined when no provider's key is set. */
export function environmentModel(environment: Environment, modelFlag: string | undefined): ModelSpec | undefined {
  const hasKey = (type: (typeof ORDER)[number]) => Boolean(environment[KEY_VARIABLES[type] ?? '']?.trim());
  const named = modelFlag ? familyOf(modelFlag) : undefined;
  // OPENAI_BASE_URL points every model at that endpoint, whatever its name.
  const baseUrl = environment.OPENAI_BASE_URL?.trim() || undefined;
  const type = baseUrl && hasKey('openai') ? 'openai' : named && hasKey(named) ? named : ORDER.find(hasKey);
  if (!type) return undefined;
  const modelId = modelFlag ?? DEFAULT_MODELS[type];
  if (type === 'openai' && baseUrl) {
    return {
      providerName: 'openai-compatible',
      provider: { type: 'openai-compatible', baseUrl, apiKeyEnv: 'OPENAI_API_KEY' },
      modelId,
    };
  }
  return { providerName: type, provider: { type }, modelId };
}
