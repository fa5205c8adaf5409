import type { IdSource } from '../clock';

/** The built-in workflow `/plan` runs. */
const PLAN_WORKFLOW = 'plan';

/** Where a new run of a workflow lives: what its id starts with and the folder its files go under. */
interface RunHome {
  readonly idPrefix: string;
  readonly folder: string;
}

/** `/plan`'s runs keep the ids and folder they always had (their reports and context ids name them). */
const PLAN_HOME: RunHome = { idPrefix: 'wf-', folder: '.council/runs' };
/** Every other workflow's runs have their own, so a generic run borrows nothing from `/plan`. */
const WORKFLOW_HOME: RunHome = { idPrefix: 'run-', folder: '.council/workflow-runs' };

/** Whether a run of `workflowName` is a `/plan` run (the built-in `plan` workflow, whichever command started it). */
export function isPlanWorkflow(workflowName: string): boolean {
  return workflowName === PLAN_WORKFLOW;
}

function homeOf(workflowName: string): RunHome {
  return isPlanWorkflow(workflowName) ? PLAN_HOME : WORKFLOW_HOME;
}

/** A new run id for a run of `workflowName`: `wf-{uuid}` for `/plan`, `run-{uuid}` for any other workflow. */
export function newRunId(workflowName: string, ids: IdSource): string {
  return `${homeOf(workflowName).idPrefix}${ids.next()}`;
}

/**
 * The workspace-relative folder of a new run's files: `.council/runs/<run-id>` for `/plan`,
 * `.council/workflow-runs/<run-id>` for any other workflow. A resumed run keeps the folder its state names.
 */
export function newRunFolder(workflowName: string, runId: string): string {
  return `${homeOf(workflowName).folder}/${runId}`;
}

/** The folders every run's files go under (kept out of workspace searches and indexes). */
export const RUN_FOLDERS: readonly string[] = [PLAN_HOME.folder, WORKFLOW_HOME.folder];
