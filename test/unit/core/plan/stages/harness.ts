import { neverCancelled, type CancellationSignal } from '../../../../../src/core/llm/languageModel';
import type { PipelineProgressEvent } from '../../../../../src/core/plan/stages/progressEvents';
import { optionFor, type CheckpointChoice } from '../../../../../src/core/workflow/engine/checkpoints';
import type { WorkflowProgress } from '../../../../../src/core/workflow/engine/workflowProgress';
import { InMemoryRunOutputs } from '../../../../support/inMemoryRunOutputs';
import type { PendingCheckpoint, WorkflowRunState } from '../../../../../src/core/workflow/engine/workflowRunState';
import { runDeepWork, type DeepWorkRequest } from '../../../../../src/core/deepWork/runDeepWork';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import { phaseStatus } from '../../../../../src/core/workflow/engine/workflowMetadata';
import type { ScriptedModel } from '../../../../support/scriptedModel';
import { builtInWorkflow } from '../../../../support/builtInWorkflow';
import { counterIds, fixtureReader, newRunId, steppingClock } from '../../../../support/pipelineScript';
import { HISTORY_KEY } from '../../../../../src/core/plan/history/blackboardHistory';
import type { HistoryItem } from '../../../../../src/core/plan/history/historyItem';

/** What a test answers at a checkpoint (the `/plan` buttons). */
export type CheckpointAnswer = 'continue' | 'redo' | 'skipNext' | 'abort';

/** The phases (stages) a run has tallies for, in the workflow's order: each with its status and passes. */
export function phasesRun(state: WorkflowRunState) {
  return Object.keys(state.phaseTallies).map(stage => ({
    stage,
    status: phaseStatus(state, stage),
    passes: state.context.phases.iteration_counts[stage] ?? 0,
  }));
}

export interface FixtureOverrides extends Partial<Omit<DeepWorkRequest, 'resume'>> {
  /** Answers each checkpoint; every checkpoint continues when absent. */
  readonly checkpoint?: (
    pending: PendingCheckpoint,
    state: WorkflowRunState,
  ) => Promise<CheckpointAnswer | CheckpointChoice>;
  readonly resume?: WorkflowRunState;
  readonly goal?: string;
}

/** One `/plan` run (the built-in plan workflow) over the fixture workspace with a scripted model, plus what a test inspects. */
export async function runFixture(
  model: ScriptedModel,
  overrides: FixtureOverrides = {},
  token: CancellationSignal = neverCancelled,
) {
  const clock = overrides.clock ?? steppingClock();
  const ids = overrides.ids ?? counterIds();
  const events: PipelineProgressEvent[] = [];
  const workflowEvents: WorkflowProgress[] = [];
  const reader = overrides.reader ?? fixtureReader();
  const { checkpoint, resume, goal, ...rest } = overrides;
  const runId = resume?.runId ?? overrides.runId ?? newRunId(ids);
  const answer = checkpoint ?? (async () => 'continue' as const);
  const request = {
    workflow: builtInWorkflow('plan'),
    model,
    reader,
    runId,
    outputs: new InMemoryRunOutputs(`.council/runs/${runId}`),
    clock,
    ids,
    token,
    onProgress: (event: PipelineProgressEvent) => events.push(event),
    onWorkflowProgress: (event: WorkflowProgress) => workflowEvents.push(event),
    ...rest,
  };
  let outcome = await runDeepWork({
    ...request,
    ...(resume ? { resume: { state: resume } } : { start: { goal: goal ?? 'Add subtraction to the calculator.' } }),
  });
  // Every checkpoint pauses the run; the test's answer resumes it, as a button does.
  while (outcome.status === 'paused') {
    const given = await answer(outcome.checkpoint, outcome.state);
    const choice = typeof given === 'string' ? { action: given === 'skipNext' ? ('skip' as const) : given } : given;
    const decision = optionFor(outcome.checkpoint, choice);
    if (!decision) break;
    outcome = await runDeepWork({ ...request, resume: { state: outcome.state, decision } });
  }
  const board = readBoard(outcome.state.blackboard);
  // The run's history, as its state keeps it.
  const items = (outcome.state.blackboard[HISTORY_KEY] ?? []) as readonly HistoryItem[];
  return { outcome, board, events, workflowEvents, reader, snapshot: { runId, items } };
}
