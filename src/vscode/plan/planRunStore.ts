import type * as vscode from 'vscode';
import { PipelineRunState } from '../../core/pipeline/run/runState';
import type { EpisodeSummary } from '../../core/pipeline/contributors/episodicMemory';
import { HISTORY_KEY_PREFIX } from './mementoHistoryStore';

/** Where a run stands, as the chat shows it. */
export type PlanRunStatus = 'running' | 'paused' | 'completed' | 'aborted' | 'cancelled' | 'needs_user' | 'rejected' | 'failed';

/** One stored run: its resumable state, status, and (once it ended) a short account for later runs. */
export interface StoredPlanRun {
  readonly state: PipelineRunState;
  readonly status: PlanRunStatus;
  readonly updatedAt: string;
  /** The last user-facing message (question, rejection or failure), if any. */
  readonly message?: string;
}

/** Every stored run's key starts with this. */
export const RUN_KEY_PREFIX = 'council.pipelineRun/';

/** Runs kept per workspace; saving one more drops the least recently updated run and its history. */
export const PLAN_RUN_CAPACITY = 20;

/** The part of `vscode.Memento` the store uses (`context.workspaceState`). */
export type PlanMemento = Pick<vscode.Memento, 'get' | 'update' | 'keys'>;

function episodeOutcome(status: PlanRunStatus): EpisodeSummary['outcome'] | undefined {
  if (status === 'completed') return 'completed';
  if (status === 'failed' || status === 'rejected') return 'failed';
  if (status === 'cancelled' || status === 'aborted') return 'cancelled';
  return undefined;
}

/**
 * Pipeline runs in workspace storage, one key per run id, so a paused or stopped run resumes in a later chat request
 * or window. Reads validate the state; anything unreadable counts as missing.
 */
export class PlanRunStore {
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly memento: PlanMemento, private readonly now: () => string = () => new Date().toISOString()) {}

  /** Saves the run's state and status (replacing the earlier copy) and evicts beyond the capacity. */
  save(state: PipelineRunState, status: PlanRunStatus, message?: string): Promise<void> {
    const entry: StoredPlanRun = { state, status, updatedAt: this.now(), ...(message ? { message } : {}) };
    const write = this.writes.then(async () => {
      await this.memento.update(RUN_KEY_PREFIX + state.runId, entry);
      const runs = this.list();
      for (const old of runs.slice(PLAN_RUN_CAPACITY)) {
        await this.memento.update(RUN_KEY_PREFIX + old.state.runId, undefined);
        await this.memento.update(HISTORY_KEY_PREFIX + old.state.runId, undefined);
      }
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** The stored run, or undefined when there is none (or it is unreadable). */
  load(runId: string): StoredPlanRun | undefined {
    return this.parse(this.memento.get<unknown>(RUN_KEY_PREFIX + runId));
  }

  /** Every readable run, most recently updated first. */
  list(): StoredPlanRun[] {
    return this.memento
      .keys()
      .filter(key => key.startsWith(RUN_KEY_PREFIX))
      .flatMap(key => this.parse(this.memento.get<unknown>(key)) ?? [])
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** Short accounts of runs that ended (completed, failed, cancelled), newest first: the episodic memory's source. */
  episodes(limit: number): EpisodeSummary[] {
    return this.list()
      .flatMap(run => {
        const outcome = episodeOutcome(run.status);
        if (!outcome) return [];
        const done = Object.keys(run.state.stages).join(', ') || 'no stage';
        const tickets = run.state.stages.planning?.result.finalizedTickets.length;
        const summary = `Goal: ${run.state.goal}. Completed: ${done}${tickets === undefined ? '' : `; ${tickets} tickets`}.${run.message ? ` ${run.message}` : ''}`;
        return [{ runId: run.state.runId, finishedAt: run.updatedAt, outcome, summary }];
      })
      .slice(0, limit);
  }

  private parse(value: unknown): StoredPlanRun | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    const entry = value as Partial<StoredPlanRun>;
    const state = PipelineRunState.safeParse(entry.state);
    if (!state.success || typeof entry.status !== 'string' || typeof entry.updatedAt !== 'string') return undefined;
    return { state: state.data, status: entry.status, updatedAt: entry.updatedAt, ...(typeof entry.message === 'string' ? { message: entry.message } : {}) };
  }
}
