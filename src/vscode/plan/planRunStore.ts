import type * as vscode from 'vscode';
import type { PipelineRunState } from '../../core/pipeline/run/runState';
import { readStoredPlanRun, storePlanRun, STORED_PLAN_RUN_FORMAT, type PlanRunStatus, type StoredPlanRun } from '../../core/pipeline/run/storedPlanRun';
import type { EpisodeSummary } from '../../core/pipeline/contributors/episodicMemory';
import { newerVersionOf, type NewerVersionError } from '../../core/storage/versioned';
import { HISTORY_KEY_PREFIX } from './mementoHistoryStore';

export type { PlanRunStatus, StoredPlanRun } from '../../core/pipeline/run/storedPlanRun';

/** What reading one stored run gave. */
export type PlanRunRead =
  | { readonly kind: 'found'; readonly run: StoredPlanRun }
  | { readonly kind: 'missing' }
  /** Saved by a newer Council: show `error.message`; the run is never resumed, overwritten or evicted here. */
  | { readonly kind: 'newer'; readonly runId: string; readonly error: NewerVersionError }
  /** Damaged; `error` says what is wrong (for the log; tell the user the run cannot be resumed). */
  | { readonly kind: 'corrupt'; readonly runId: string; readonly error: string };

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
 * or window. Reads migrate and validate (`readStoredPlanRun`); `read` says why a run cannot be used, `load` and
 * `list` skip it. A run saved by a newer Council is never overwritten or evicted.
 */
export class PlanRunStore {
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly memento: PlanMemento, private readonly now: () => string = () => new Date().toISOString()) {}

  /**
   * Saves the run's state and status (replacing the earlier copy) and evicts beyond the capacity.
   * Rejects with NewerVersionError when a newer Council's copy is stored under the run id.
   */
  save(state: PipelineRunState, status: PlanRunStatus, message?: string, requestsUsed?: number): Promise<void> {
    const entry = storePlanRun(state, status, this.now(), message, requestsUsed);
    const write = this.writes.then(async () => {
      const newer = newerVersionOf(STORED_PLAN_RUN_FORMAT, this.memento.get<unknown>(RUN_KEY_PREFIX + state.runId));
      if (newer) throw newer;
      await this.memento.update(RUN_KEY_PREFIX + state.runId, entry);
      // Only readable runs are listed, so a newer Council's runs are never evicted here.
      const runs = this.list();
      for (const old of runs.slice(PLAN_RUN_CAPACITY)) {
        await this.memento.update(RUN_KEY_PREFIX + old.state.runId, undefined);
        await this.memento.update(HISTORY_KEY_PREFIX + old.state.runId, undefined);
      }
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** The stored run, or why it cannot be used. */
  read(runId: string): PlanRunRead {
    const raw = this.memento.get<unknown>(RUN_KEY_PREFIX + runId);
    if (raw === undefined) return { kind: 'missing' };
    const read = readStoredPlanRun(raw);
    if (read.kind === 'current') return { kind: 'found', run: read.value };
    return read.kind === 'newer' ? { kind: 'newer', runId, error: read.error } : { kind: 'corrupt', runId, error: read.error };
  }

  /** The most recently updated run, readable or not (`missing` when none is stored): what `/plan` resumes without a run id. */
  latest(): PlanRunRead {
    const newest = this.memento
      .keys()
      .filter(key => key.startsWith(RUN_KEY_PREFIX))
      .map(key => ({ runId: key.slice(RUN_KEY_PREFIX.length), updatedAt: updatedAtOf(this.memento.get<unknown>(key)) }))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
    return newest ? this.read(newest.runId) : { kind: 'missing' };
  }

  /** The stored run, or undefined when there is none or it cannot be used (see `read`). */
  load(runId: string): StoredPlanRun | undefined {
    const read = this.read(runId);
    return read.kind === 'found' ? read.run : undefined;
  }

  /** Every readable run, most recently updated first. */
  list(): StoredPlanRun[] {
    return this.memento
      .keys()
      .filter(key => key.startsWith(RUN_KEY_PREFIX))
      .flatMap(key => {
        const read = readStoredPlanRun(this.memento.get<unknown>(key));
        return read.kind === 'current' ? [read.value] : [];
      })
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
}

/** A stored record's save time for ordering; records without one sort last. */
function updatedAtOf(raw: unknown): string {
  const updatedAt = typeof raw === 'object' && raw !== null ? (raw as { readonly updatedAt?: unknown }).updatedAt : undefined;
  return typeof updatedAt === 'string' ? updatedAt : '';
}
