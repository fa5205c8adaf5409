import type { CancellationSignal } from '../../llm/languageModel';
import type { AgentType } from '../schemas/agentType';
import type { PreviousContext } from '../schemas/previousContext';

/**
 * What contributors see about the agent being prompted (spec 000's PromptContext). Its `upstreamContext` and
 * `blackboardHistory` do not fit here: the upstream context is the stage prompt's own section, and earlier runs reach
 * the one contributor that needs them through its `EpisodicMemory` port.
 */
export interface PromptContext {
  readonly agentType: AgentType;
  /** Id of the current execution; names the same agent type. */
  readonly currentContextId: string;
  readonly previousContext?: PreviousContext;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** Highest contributor priority (priorities are 0..1000). */
export const MAX_CONTRIBUTOR_PRIORITY = 1000;

/**
 * Adds a piece of data to the prompts of some agent types (spec 000 PromptContributor).
 *
 * `priority` (0..1000) orders contributions (lower = earlier in the prompt) and decides what
 * survives a tight token budget: the LOWEST priorities are pruned first, so must-keep data gets
 * a high number.
 */
export interface PromptContributor {
  /** Unique across the registry. */
  readonly name: string;
  /** Agent types whose prompts receive this contribution. */
  readonly appliesTo: readonly AgentType[] | 'all';
  readonly priority: number;
  /** The text to add, or undefined when there is nothing to say for this context. */
  contribute(ctx: PromptContext, token?: CancellationSignal): Promise<string | undefined>;
}

/** One contributor's text, ready to render. */
export type Contribution = Pick<PromptContributor, 'name' | 'priority'> & { readonly text: string };
