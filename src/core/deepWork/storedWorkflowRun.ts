import { z } from 'zod';
import { explainIssue } from '../zodIssues';
import { readPayloadVersions } from '../plan/schemas/version';
import {
  NewerVersionError,
  newerVersionOf,
  readStored,
  type Migration,
  type StoredFormat,
  type StoredRead,
  type StoredRecord,
} from '../storage/versioned';
import { phaseStep, WorkflowRunState } from '../workflow/engine/workflowRunState';
import type { LedgerLine } from '../llm/spending/ledger';
import { PIPELINE_BOARD_KEY, PipelineBoard } from '../plan/pipelineBoard';
import { HISTORY_KEY, HISTORY_NOTES_KEY } from '../plan/history/blackboardHistory';
import { RunHistory, RunHistoryNotes } from '../plan/history/historyItem';

/** The storage format version this code writes for a workflow run (`/plan` runs included). */
const STORED_WORKFLOW_RUN_VERSION = 3;

export const WorkflowRunStatus = z.enum([
  'running',
  'paused',
  'completed',
  'aborted',
  'cancelled',
  'needs_user',
  'failed',
]);
/** Where a run stands, as the chat shows it. */
export type WorkflowRunStatus = z.infer<typeof WorkflowRunStatus>;

/** The model a ledger line names when the run was saved before the ledger said which model spent. */
const UNRECORDED_MODEL = 'not recorded (saved before the ledger)';

/**
 * Format 2 kept the run's request count beside its ledger (`requestsUsed`, and `model_requests` per phase tally; the
 * ledger optional) and had a `rejected` status; format 3's ledger is the only meter. The counts become ledger lines
 * of the same requests (their tokens were never recorded: 0), a rejected run a failed one.
 */
function ledgerFromCounts(record: StoredRecord): StoredRecord {
  const state = record.state;
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return record;
  const { requestsUsed, phaseTallies, spending, ...rest } = state as Readonly<Record<string, unknown>>;
  const kept = Array.isArray(spending) ? (spending as LedgerLine[]) : [];
  const tallies = typeof phaseTallies === 'object' && phaseTallies !== null ? phaseTallies : {};
  const lines: LedgerLine[] = [];
  const cleanTallies: Record<string, unknown> = {};
  for (const [phase, tally] of Object.entries(tallies as Readonly<Record<string, unknown>>)) {
    const { model_requests: requests, ...cleanTally } = (tally ?? {}) as Readonly<Record<string, unknown>>;
    cleanTallies[phase] = cleanTally;
    // A run that had a ledger already counted its phases there.
    if (kept.length === 0 && typeof requests === 'number' && requests > 0)
      lines.push(unrecorded(phase, phaseStep(phase), requests));
  }
  const counted = [...kept, ...lines].reduce((sum, line) => sum + line.requests, 0);
  // What the run's count holds beyond its phases' (e.g. a finalization request) is kept as one line.
  if (typeof requestsUsed === 'number' && requestsUsed > counted)
    lines.push(unrecorded('run', 'earlier turns', requestsUsed - counted));
  return {
    ...record,
    status: record.status === 'rejected' ? 'failed' : record.status,
    state: { ...rest, phaseTallies: cleanTallies, spending: [...kept, ...lines] },
  };
}

function unrecorded(who: string, step: string, requests: number): LedgerLine {
  return { who, step, model: UNRECORDED_MODEL, requests, inputTokens: 0, outputTokens: 0 };
}

const STORED_WORKFLOW_RUN_MIGRATIONS: readonly Migration[] = [
  {
    // Format 1 (a `/plan` run as the pipeline's own state) was written only by development builds before `/plan` ran
    // through the workflow engine, and never released: such a record is refused with the way forward, not converted.
    from: 1,
    description: 'A /plan run stored by a development build before /plan ran as a workflow: not converted.',
    migrate: () => {
      throw new Error('it was saved by a development build of Council before /plan ran as a workflow');
    },
  },
  {
    from: 2,
    description:
      "The run's request counts become ledger lines (the ledger is the only meter); a rejected run is failed.",
    migrate: ledgerFromCounts,
  },
];

/** One stored run: its resumable state, status, and the last message shown. */
export const StoredWorkflowRun = z.object({
  version: z.literal(STORED_WORKFLOW_RUN_VERSION),
  /** The workflow's name (`plan` for `/plan`). */
  workflow: z.string(),
  /** The run state has its own `stateVersion`; this version covers the whole record around it. */
  state: WorkflowRunState.superRefine((state, ctx) => {
    // The pipeline stages' records and the run's history are opaque to the engine; they are checked here, once,
    // when a run is read back.
    for (const [key, schema] of [
      [PIPELINE_BOARD_KEY, PipelineBoard],
      [HISTORY_KEY, RunHistory],
      [HISTORY_NOTES_KEY, RunHistoryNotes],
    ] as const) {
      const kept = state.blackboard[key];
      if (kept === undefined) continue;
      const checked = schema.safeParse(kept);
      if (checked.success) continue;
      // Worded here, where the record's schema and data are at hand, as every stored record's issues are worded.
      for (const issue of checked.error.issues)
        for (const { path, message } of explainIssue(issue, schema, kept))
          ctx.addIssue({ code: 'custom', message, path: ['blackboard', key, ...path] });
    }
  }),
  status: WorkflowRunStatus,
  updatedAt: z.string(),
  /** The last user-facing message (question, rejection or failure), if any. */
  message: z.string().optional(),
});
export type StoredWorkflowRun = z.infer<typeof StoredWorkflowRun>;

/** How a workflow run is stored in workspace storage. */
export const STORED_WORKFLOW_RUN_FORMAT: StoredFormat<StoredWorkflowRun> = {
  noun: 'workflow run',
  current: STORED_WORKFLOW_RUN_VERSION,
  migrations: STORED_WORKFLOW_RUN_MIGRATIONS,
  schema: StoredWorkflowRun,
  resume: 'resume it',
  startOver: 'start a new run with `/plan <goal>` or `/workflow <name> <goal>`',
};

/** The record to store for a run in its current format. */
export function storeWorkflowRun(
  state: WorkflowRunState,
  status: WorkflowRunStatus,
  updatedAt: string,
  message?: string,
): StoredWorkflowRun {
  return {
    version: STORED_WORKFLOW_RUN_VERSION,
    workflow: state.context.workflow.name,
    state,
    status,
    updatedAt,
    ...(message ? { message } : {}),
  };
}

/**
 * Migrates and validates a stored run, its pipeline records' payload versions compared with this Council's (spec 003
 * §7: the same major read, an older minor migrated, a newer major refused as a newer Council's, a deprecated one
 * warned about).
 */
export function readStoredWorkflowRun(raw: unknown): StoredRead<StoredWorkflowRun> {
  const state = fieldOf(raw, 'state');
  const board = fieldOf(state, 'blackboard');
  const records = fieldOf(board, PIPELINE_BOARD_KEY);
  // A newer storage format is reported as such, whatever its records hold.
  if (records === undefined || newerVersionOf(STORED_WORKFLOW_RUN_FORMAT, raw))
    return readStored(STORED_WORKFLOW_RUN_FORMAT, raw);
  const payloads = readPayloadVersions(records);
  const why =
    'message' in payloads ? `The stored ${STORED_WORKFLOW_RUN_FORMAT.noun} cannot be read. ${payloads.message}` : '';
  if ('kind' in payloads && payloads.kind === 'newer')
    return {
      kind: 'newer',
      error: new NewerVersionError(
        fieldOf(raw, 'version'),
        STORED_WORKFLOW_RUN_VERSION,
        `${why} Update the Council extension to ${STORED_WORKFLOW_RUN_FORMAT.resume}, or ${STORED_WORKFLOW_RUN_FORMAT.startOver}. The saved ${STORED_WORKFLOW_RUN_FORMAT.noun} is kept unchanged.`,
      ),
    };
  if ('kind' in payloads) return { kind: 'damaged', error: why };
  const read = readStored(STORED_WORKFLOW_RUN_FORMAT, {
    ...(raw as StoredRecord),
    state: {
      ...(state as StoredRecord),
      blackboard: { ...(board as StoredRecord), [PIPELINE_BOARD_KEY]: payloads.value },
    },
  });
  return read.kind === 'current' && payloads.warnings.length > 0 ? { ...read, warnings: payloads.warnings } : read;
}

/** A field of a stored value not yet validated; undefined when the value is no record or lacks it. */
function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as StoredRecord)[key]
    : undefined;
}
