import type { BasePromptElementProps, PromptElementCtor } from '@vscode/prompt-tsx';
import { renderMessages } from '../../llm/prompting/render';
import type { ChatMessage } from '../../llm/languageModel';
import {
  exploreWorkspace,
  transcriptText,
  type Exploration,
  type ExplorationLimits,
} from '../../workspace/explorationLoop';
import type { StageEnvironment } from './stageEnvironment';

/** Props every exploring agent's prompt takes besides its own. */
export interface ExploringPromptProps extends BasePromptElementProps {
  /** True for the final request, after exploring. */
  readonly reporting: boolean;
  /** The exploration transcript, in the reporting request. */
  readonly exploration?: string;
}

/**
 * An exploring agent's two phases: the prompt opens a bounded read-only tool loop over the workspace,
 * then the same prompt, with the exploration's transcript, asks for the final report. Returns that request
 * and the exploration (which tool calls ran and which were refused, for the history).
 */
export async function exploreThenReport<P extends ExploringPromptProps>(
  env: StageEnvironment,
  prompt: PromptElementCtor<P, unknown>,
  props: Omit<P, 'reporting' | 'exploration'>,
  limits: ExplorationLimits,
): Promise<{ readonly messages: readonly ChatMessage[]; readonly exploration: Exploration }> {
  const opening = await renderMessages(prompt, { ...props, reporting: false } as P, env.model, env.token);
  const exploration = await exploreWorkspace(
    env.model,
    opening.messages,
    { reader: env.reader, index: env.index, limits: env.options.toolLimits },
    limits,
    env.token,
  );
  const report = await renderMessages(
    prompt,
    { ...props, reporting: true, exploration: transcriptText(exploration, limits.maxTranscriptChars) } as P,
    env.model,
    env.token,
  );
  return { messages: report.messages, exploration };
}
