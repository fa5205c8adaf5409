import type { LanguageModel } from '../../../../../src/core/llm/languageModel';
import type { PromptContext } from '../../../../../src/core/plan/contributors/promptContributor';
import type { PromptContributor } from '../../../../../src/core/plan/contributors/promptContributor';

export const RUN = 'wf-3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b';

/** A prompt context for `agentType` in run RUN. */
export function promptContext(agentType: PromptContext['agentType'] = 'discovery-agent'): PromptContext {
  return { agentType, currentContextId: `${RUN}/${agentType}/1/2026-01-19T10:00:00.000Z`, metadata: {} };
}

/** A contributor returning fixed text. */
export function fixed(
  name: string,
  priority: number,
  text: string | undefined,
  appliesTo: PromptContributor['appliesTo'] = 'all',
): PromptContributor {
  return { name, priority, appliesTo, contribute: async () => text };
}

/** A model that only counts tokens (one per 4 characters) within a small budget. */
export function countingModel(maxInputTokens: number): LanguageModel {
  return {
    id: 'counting',
    name: 'counting',
    family: 'test',
    vendor: 'test',
    maxInputTokens,
    supportsToolCalling: false,
    sendRequest: () => {
      throw new Error('not used');
    },
    countTokens: async text => Math.ceil(text.length / 4),
  };
}
