import type * as vscode from 'vscode';
import type { EpisodeSummary, EpisodicMemory } from '../../core/plan/contributors/episodicMemory';
import { newerVersionOf, type NewerVersionError } from '../../core/storage/versioned';
import { USER_ANSWER } from '../../core/deepWork/runDeepWork';
import { isPlanWorkflow } from '../../core/deepWork/runHome';
import { PIPELINE_BOARD_KEY, type PipelineBoard } from '../../core/plan/pipelineBoard';
import type { WorkflowRunState } from '../../core/workflow/engine/workflowRunState';
import {
  readStoredWorkflowRun,
  storeWorkflowRun,
  STORED_WORKFLOW_RUN_FORMAT,
  type StoredWorkflowRun,
  type WorkflowRunStatus,
} from '../../core/deepWork/storedWorkflowRun';

/** What reading one stored run gave. */
export type RunRead =
  /** `warnings`: what its records' payload versions should tell the user (a deprecated version, spec 003 §7.3). */
  | { readonly kind: 'found'; readonly run: StoredWorkflowRun; readonly warnings?: readonly string[] }
  | { readonly kind: 'missing' }
  /** Saved by a newer Council: show `error.message`; the run is never resumed, overwritten or evicted here. */
  | { readonly kind: 'newer'; readonly runId: string; readonly error: NewerVersionError }
  /** Damaged; `error` says what is wrong (for the log; tell the user the run cannot be resumed). */
  | { readonly kind: 'damaged'; readonly runId: string; readonly error: string };

/** A `/plan` run's key starts with this (the name from before `/plan` ran as a workflow, so old runs are found). */
export const PLAN_RUN_KEY_PREFIX = 'council.pipelineRun/';

/**
 * Any other workflow's run's key starts with this. Workflow runs saved before they had their own key are under
 * {@link PLAN_RUN_KEY_PREFIX}: they are still read there, and move here when next saved.
 */
export const WORKFLOW_RUN_KEY_PREFIX = 'council.workflowRun/';

const KEY_PREFIXES = [WORKFLOW_RUN_KEY_PREFIX, PLAN_RUN_KEY_PREFIX] as const;

/** The key a run is saved under, by its workflow. */
function keyOf(state: WorkflowRunState): string {
  return (isPlanWorkflow(state.context.workflow.name) ? PLAN_RUN_KEY_PREFIX : WORKFLOW_RUN_KEY_PREFIX) + state.runId;
}

/** Runs kept per workspace; saving one more drops the least recently updated run (its history with it). */
export const RUN_CAPACITY = 20;

function episodeOutcome(status: WorkflowRunStatus): EpisodeSummary['outcome'] | undefined {
  if (status === 'completed') return 'completed';
  if (status === 'failed') return 'failed';
  if (status === 'cancelled' || status === 'aborted') return 'cancelled';
  return undefined;
}

/**
 * A few sentences on what a run did, for later runs' episodic memory: its goal and phases, how it ended (the last
 * message: a failure, a stop, a question), what it decided (a pipeline run's tickets, which it writes to no file;
 * otherwise its files) and what the user answered along the way.
 */
function episodeSummary({ workflow, state, message }: StoredWorkflowRun): string {
  const done = state.context.phases.completed.join(', ') || 'no phase';
  const board = state.blackboard[PIPELINE_BOARD_KEY] as PipelineBoard | undefined;
  const tickets = board?.stages.planning?.result.planningCuration.curation.finalizedTickets;
  const decided = tickets
    ? `Decided ${tickets.length} tickets: ${tickets.map(ticket => ticket.title).join('; ')}.`
    : `Wrote ${state.context.deliverables.length} files${state.context.deliverables.length ? `: ${state.context.deliverables.map(file => file.path).join(', ')}` : ''}.`;
  const answers = (board?.constraints ?? []).filter(constraint => constraint.startsWith(USER_ANSWER));
  return [
    `Workflow ${workflow}. Goal: ${state.context.goal.replace(/[.\s]+$/, '')}. Completed: ${done}.`,
    ...(message ? [`Ended: ${message}`] : []),
    decided,
    ...answers,
  ].join(' ');
}

/**
 * Workflow runs (`/plan` and `/workflow`) in workspace storage, one key per run id (`/plan`'s and other workflows'
 * under their own prefixes), so a paused or stopped run
 * resumes in a later chat request or window. Reads migrate and validate (`readStoredWorkflowRun`); `read` says why a
 * run cannot be used, `load` and `list` skip it. A run saved by a newer Council is never overwritten or evicted.
 */
export class RunStore implements EpisodicMemory {
  private writes: Promise<void> = Promise.resolve();

  constructor(
    /** `context.workspaceState`, of which the store uses only these. */
    private readonly memento: Pick<vscode.Memento, 'get' | 'update' | 'keys'>,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /**
   * Saves the run's state and status (replacing the earlier copy) and evicts beyond the capacity.
   * Rejects with NewerVersionError when a newer Council's copy is stored under the run id.
   */
  save(state: WorkflowRunState, status: WorkflowRunStatus, message?: string): Promise<void> {
    const entry = storeWorkflowRun(state, status, this.now(), message);
    const key = keyOf(state);
    const write = this.writes.then(async () => {
      const stored = KEY_PREFIXES.map(prefix => prefix + state.runId).filter(
        at => this.memento.get<unknown>(at) !== undefined,
      );
      const newer = stored
        .map(at => newerVersionOf(STORED_WORKFLOW_RUN_FORMAT, this.memento.get<unknown>(at)))
        .find(error => error !== undefined);
      if (newer) throw newer;
      await this.memento.update(key, entry);
      // A workflow run saved under the old key moves: written under its own, dropped from the old one.
      for (const old of stored) if (old !== key) await this.memento.update(old, undefined);
      // Eviction reads only each record's version and save time (a run's state, history included, is validated when
      // the run is read, not on every save); a newer Council's runs are never evicted here.
      const ours = this.records().filter(({ raw }) => !newerVersionOf(STORED_WORKFLOW_RUN_FORMAT, raw));
      for (const old of ours.slice(RUN_CAPACITY)) await this.memento.update(old.key, undefined);
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** The stored run, or why it cannot be used. */
  read(runId: string): RunRead {
    // A workflow run's own key first; then the key every run had before (a `/plan` run's still).
    const raw = KEY_PREFIXES.map(prefix => this.memento.get<unknown>(prefix + runId)).find(
      value => value !== undefined,
    );
    if (raw === undefined) return { kind: 'missing' };
    const read = readStoredWorkflowRun(raw);
    if (read.kind === 'current')
      return { kind: 'found', run: read.value, ...(read.warnings ? { warnings: read.warnings } : {}) };
    return read.kind === 'newer'
      ? { kind: 'newer', runId, error: read.error }
      : { kind: 'damaged', runId, error: read.error };
  }

  /**
   * What a bare resume continues: the most recently updated *readable* run of `workflow` (any workflow when
   * absent); the newer runs it passed over because they cannot be resumed (damaged, or saved by a newer Council),
   * each with why; and the other readable runs, newest first, so the user can pick one.
   */
  newestReadable(workflow?: string): {
    readonly run?: StoredWorkflowRun;
    readonly passedOver: readonly Exclude<RunRead, { kind: 'found' | 'missing' }>[];
    readonly others: readonly StoredWorkflowRun[];
  } {
    const reads = this.records()
      // Records from before workflows name none: they are `/plan` runs.
      .filter(({ raw }) => workflow === undefined || (fieldOf(raw, 'workflow') ?? 'plan') === workflow)
      .map(({ runId }) => this.read(runId));
    const readable = reads.flatMap(read => (read.kind === 'found' ? [read.run] : []));
    const first = reads.findIndex(read => read.kind === 'found');
    const passedOver = reads
      .slice(0, first < 0 ? reads.length : first)
      .flatMap(read => (read.kind === 'newer' || read.kind === 'damaged' ? [read] : []));
    return { ...(readable[0] ? { run: readable[0] } : {}), passedOver, others: readable.slice(1) };
  }

  /** The stored run, or undefined when there is none or it cannot be used (see `read`). */
  load(runId: string): StoredWorkflowRun | undefined {
    const read = this.read(runId);
    return read.kind === 'found' ? read.run : undefined;
  }

  /** Every readable run, most recently updated first. */
  list(): StoredWorkflowRun[] {
    return this.records().flatMap(({ runId }) => this.load(runId) ?? []);
  }

  /**
   * Every stored record with its key and run id, most recently saved first; a run under both keys (a move cut short)
   * once, by its own key.
   */
  private records(): { readonly key: string; readonly runId: string; readonly raw: unknown }[] {
    const keys = this.memento.keys();
    const seen = new Set<string>();
    return (
      KEY_PREFIXES.flatMap(prefix =>
        keys
          .filter(key => key.startsWith(prefix))
          .map(key => ({ key, runId: key.slice(prefix.length), raw: this.memento.get<unknown>(key) })),
      )
        .filter(({ runId }) => !seen.has(runId) && !!seen.add(runId))
        // Records without a save time sort last.
        .sort((a, b) => (fieldOf(b.raw, 'updatedAt') ?? '').localeCompare(fieldOf(a.raw, 'updatedAt') ?? ''))
    );
  }

  /** Short accounts of runs that ended (completed, failed, cancelled), newest first: the episodic memory's source. */
  async recall(limit: number): Promise<EpisodeSummary[]> {
    return this.list()
      .flatMap(run => {
        const outcome = episodeOutcome(run.status);
        return outcome
          ? [{ runId: run.state.runId, finishedAt: run.updatedAt, outcome, summary: episodeSummary(run) }]
          : [];
      })
      .slice(0, limit);
  }
}

/** A text field of a stored record before it is read (to order and filter records); undefined when it has none. */
function fieldOf(raw: unknown, key: 'updatedAt' | 'workflow'): string | undefined {
  const value = typeof raw === 'object' && raw !== null ? (raw as Readonly<Record<string, unknown>>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}
