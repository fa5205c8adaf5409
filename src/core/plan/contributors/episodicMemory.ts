import type { CancellationSignal } from '../../llm/languageModel';
import type { AgentType } from '../schemas/agentType';
import type { PromptContributor } from './promptContributor';
import { clip } from './text';

/** A short account of how an earlier pipeline run ended. */
export interface EpisodeSummary {
  /** The run's workflow id, `wf-{uuid}`. */
  readonly runId: string;
  /** ISO-8601 instant the run ended. */
  readonly finishedAt: string;
  readonly outcome: 'completed' | 'failed' | 'cancelled';
  readonly summary: string;
}

/** Port to what earlier runs left behind (VS Code adapter: workspace storage). */
export interface EpisodicMemory {
  /** Up to `limit` summaries of earlier runs relevant to `agentType`, any order. */
  recall(
    request: { readonly agentType: AgentType; readonly limit: number },
    token?: CancellationSignal,
  ): Promise<readonly EpisodeSummary[]>;
}

/** Options for the episodic memory contributor. */
export interface EpisodicMemoryOptions {
  readonly priority?: number;
  readonly appliesTo?: readonly AgentType[] | 'all';
  /** Most runs to mention (default 3). */
  readonly limit?: number;
  /** Longest summary kept per run, in characters (default 300). */
  readonly maxSummaryChars?: number;
}

const ORCHESTRATORS: readonly AgentType[] = [
  'orchestrator',
  'discovery-orchestrator',
  'planning-orchestrator',
  'ticket-orchestrator',
];

/** Tells orchestrators, newest first, how earlier runs ended, so they neither repeat failures nor redo finished work. */
export function episodicMemoryContributor(
  memory: EpisodicMemory,
  options: EpisodicMemoryOptions = {},
): PromptContributor {
  const limit = options.limit ?? 3;
  const maxSummaryChars = options.maxSummaryChars ?? 300;
  return {
    name: 'episodic-memory',
    appliesTo: options.appliesTo ?? ORCHESTRATORS,
    priority: options.priority ?? 300,
    async contribute(ctx, token) {
      const currentRun = ctx.currentContextId.split('/')[0];
      const episodes = (await memory.recall({ agentType: ctx.agentType, limit }, token))
        .filter(episode => episode.runId !== currentRun)
        .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt))
        .slice(0, limit);
      if (episodes.length === 0) return undefined;
      const lines = episodes.map(
        episode =>
          `- ${episode.finishedAt} ${episode.runId} (${episode.outcome}): ${clip(episode.summary, maxSummaryChars)}`,
      );
      return ['Earlier runs in this workspace, newest first:', ...lines].join('\n');
    },
  };
}
