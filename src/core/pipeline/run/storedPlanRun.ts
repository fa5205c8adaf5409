import { z } from 'zod';
import { readStored, type Migration, type StoredFormat, type StoredRead } from '../../storage/versioned';
import { PipelineRunState } from './runState';

/** The storage format version this code writes for a `/plan` run. */
export const STORED_PLAN_RUN_VERSION = 1;

/**
 * Upgrades from each older stored-run format, one step per version. Format 1 is what Council stored before
 * runs carried a version (the same shape, without the field), so there is nothing to upgrade yet. To add
 * format 2: write `{ from: 1, description, migrate }` here, bump `STORED_PLAN_RUN_VERSION`, change the schema.
 */
export const STORED_PLAN_RUN_MIGRATIONS: readonly Migration[] = [];

/** Where a run stands, as the chat shows it. */
export const PlanRunStatus = z.enum(['running', 'paused', 'completed', 'aborted', 'cancelled', 'needs_user', 'rejected', 'failed']);
/** Where a run stands, as the chat shows it. */
export type PlanRunStatus = z.infer<typeof PlanRunStatus>;

/** One stored run: its resumable state, status, and (once it ended) a short account for later runs. */
export const StoredPlanRun = z.object({
  version: z.literal(STORED_PLAN_RUN_VERSION),
  /** The run state has its own `stateVersion`; this version covers the whole record around it. */
  state: PipelineRunState,
  status: PlanRunStatus,
  updatedAt: z.string(),
  /** The last user-facing message (question, rejection or failure), if any. */
  message: z.string().optional(),
  /** Model requests the run has spent over all its turns (absent in runs stored before it was counted: 0). */
  requestsUsed: z.number().int().min(0).optional(),
});
/** One stored run. */
export type StoredPlanRun = z.infer<typeof StoredPlanRun>;

/** How a `/plan` run is stored in workspace storage. */
export const STORED_PLAN_RUN_FORMAT: StoredFormat<StoredPlanRun> = {
  noun: 'plan run',
  versionField: 'version',
  current: STORED_PLAN_RUN_VERSION,
  migrations: STORED_PLAN_RUN_MIGRATIONS,
  schema: StoredPlanRun,
  resume: 'resume it',
  startOver: 'start a new run with `/plan <goal>`',
};

/** The record to store for a run in its current format. */
export function storePlanRun(state: PipelineRunState, status: PlanRunStatus, updatedAt: string, message?: string, requestsUsed?: number): StoredPlanRun {
  return { version: STORED_PLAN_RUN_VERSION, state, status, updatedAt, ...(message ? { message } : {}), ...(requestsUsed ? { requestsUsed } : {}) };
}

/** Migrates and validates a stored run. */
export function readStoredPlanRun(raw: unknown): StoredRead<StoredPlanRun> {
  return readStored(STORED_PLAN_RUN_FORMAT, raw);
}
