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
  /** What the run was for, what it decided (e.g. its tickets) and what it learned (how it ended, the user's answers). */
  readonly summary: string;
}

/** Port to what earlier runs left behind (VS Code adapter: workspace storage). */
export interface EpisodicMemory {
  /** Up to `limit` summaries of earlier runs, any order. */
  recall(limit: number): Promise<readonly EpisodeSummary[]>;
}

/** The agents that decide what to do: planning agents (what the tickets are) and ticket agents (how to do one). */
const REMEMBERING_AGENTS: readonly AgentType[] = ['planning-agent', 'ticket-agent'];

/** Most runs mentioned, and the longest summary kept per run (characters). */
const MAX_EPISODES = 3;
const MAX_SUMMARY_CHARS = 400;
/** The most tokens the memory adds to one prompt (estimated at 4 characters a token, as the governor estimates). */
export const MAX_EPISODIC_MEMORY_TOKENS = 250;
const MAX_MEMORY_CHARS = MAX_EPISODIC_MEMORY_TOKENS * 4;

/**
 * Tells the planning and ticket agents, newest first, what earlier runs in this workspace decided and how they ended,
 * so they build on finished work and do not repeat a failure. Bounded: at most three runs and
 * {@link MAX_EPISODIC_MEMORY_TOKENS} tokens; the assembly fences it as data (goals and tickets came from users and models).
 */
export function episodicMemoryContributor(memory: EpisodicMemory): PromptContributor {
  return {
    name: 'episodic-memory',
    appliesTo: REMEMBERING_AGENTS,
    priority: 300,
    async contribute(ctx) {
      const currentRun = ctx.currentContextId.split('/')[0];
      // One more than shown: a resumed run may be among the ended ones, and is left out.
      const episodes = (await memory.recall(MAX_EPISODES + 1))
        .filter(episode => episode.runId !== currentRun)
        .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt))
        .slice(0, MAX_EPISODES);
      let text = 'Earlier runs in this workspace, newest first (build on what they decided; do not repeat a failure):';
      let shown = 0;
      for (const episode of episodes) {
        const entry = `- ${episode.finishedAt.slice(0, 10)} (${episode.outcome}): ${clip(episode.summary, MAX_SUMMARY_CHARS)}`;
        // The newest runs first, each whole or clipped to what is left of the bound (a line break included).
        const room = MAX_MEMORY_CHARS - text.length - 1;
        if (room < 80) break;
        text += `\n${clip(entry, room)}`;
        shown++;
      }
      return shown === 0 ? undefined : text;
    },
  };
}
