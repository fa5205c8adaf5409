import { ORCHESTRATORS } from '../schemas/agentType';
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
  /** Up to `limit` summaries of earlier runs, any order. */
  recall(limit: number): Promise<readonly EpisodeSummary[]>;
}

/** Most runs mentioned, and the longest summary kept per run (characters). */
const MAX_EPISODES = 3;
const MAX_SUMMARY_CHARS = 300;

/** Tells orchestrators, newest first, how earlier runs ended, so they neither repeat failures nor redo finished work. */
export function episodicMemoryContributor(memory: EpisodicMemory): PromptContributor {
  return {
    name: 'episodic-memory',
    appliesTo: ORCHESTRATORS,
    priority: 300,
    async contribute(ctx) {
      const currentRun = ctx.currentContextId.split('/')[0];
      // One more than shown: a resumed run may be among the ended ones, and is left out.
      const episodes = (await memory.recall(MAX_EPISODES + 1))
        .filter(episode => episode.runId !== currentRun)
        .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt))
        .slice(0, MAX_EPISODES);
      if (episodes.length === 0) return undefined;
      const lines = episodes.map(
        episode =>
          `- ${episode.finishedAt} ${episode.runId} (${episode.outcome}): ${clip(episode.summary, MAX_SUMMARY_CHARS)}`,
      );
      return ['Earlier runs in this workspace, newest first:', ...lines].join('\n');
    },
  };
}
