import type { AgentType } from './agentType';
import type { PreviousContext } from './previousContext';

/** What prompt contributors see about the agent being prompted (spec 000's PromptContext). */
export interface PromptContext {
  readonly agentType: AgentType;
  /** Id of the current execution; names the same agent type. */
  readonly currentContextId: string;
  readonly previousContext?: PreviousContext;
  readonly metadata: Readonly<Record<string, unknown>>;
}
