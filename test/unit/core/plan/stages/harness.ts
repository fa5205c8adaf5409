import { neverCancelled, type CancellationSignal } from '../../../../../src/core/llm/languageModel';
import type { PipelineProgressEvent } from '../../../../../src/core/plan/stages/progressEvents';
import type { CheckpointChoice } from '../../../../../src/core/workflow/engine/checkpoints';
import type { WorkflowProgress } from '../../../../../src/core/workflow/engine/workflowProgress';
import { InMemoryRunOutputs } from '../../../../support/inMemoryRunOutputs';
import type { WorkflowRunState } from '../../../../../src/core/workflow/engine/workflowRunState';
import { runDeepWork, type DeepWorkRequest, type StageCheckpoint } from '../../../../../src/core/deepWork/runDeepWork';
import type { WorkflowOutcome } from '../../../../../src/core/workflow/engine/runWorkflow';
import { pipelineRunStateOf } from '../../../../../src/core/plan/pipelineBoard';
import type { PipelineRunState } from '../../../../../src/core/plan/run/runState';
import type { ScriptedModel } from '../../../../support/scriptedModel';
import { builtInWorkflow } from '../../../../support/builtInWorkflow';
import { counterIds, fixtureReader, newRunId, steppingClock } from '../../../../support/pipelineScript';
import { HISTORY_KEY } from '../../../../../src/core/plan/history/blackboardHistory';
import type { HistoryItem } from '../../../../../src/core/plan/history/historyItem';

/** What a test answers at a checkpoint (the `/plan` buttons). */
export type CheckpointAnswer = 'continue' | 'redo' | 'skipNext' | 'abort';

/** A plan run's outcome with the pipeline's view as `state` and the workflow state as `run` (what a resume takes). */
type Swapped<O> = O extends WorkflowOutcome
  ? Omit<O, 'state'> & { readonly state: PipelineRunState; readonly run: WorkflowRunState }
  : never;
export type FixtureOutcome = Swapped<WorkflowOutcome>;

export interface FixtureOverrides extends Partial<Omit<DeepWorkRequest, 'checkpoint' | 'resume'>> {
  /** Answers each checkpoint; every checkpoint continues when absent. */
  readonly checkpoint?: (checkpoint: StageCheckpoint) => Promise<CheckpointAnswer>;
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
  const result = await runDeepWork({
    workflow: builtInWorkflow('plan'),
    model,
    reader,
    runId,
    outputs: new InMemoryRunOutputs(`.council/runs/${runId}`),
    clock,
    ids,
    token,
    onProgress: event => events.push(event),
    onWorkflowProgress: event => workflowEvents.push(event),
    checkpoint: async at => {
      const given = await answer(at);
      return { action: given === 'skipNext' ? 'skip' : given } satisfies CheckpointChoice;
    },
    ...rest,
    ...(resume ? { resume: { state: resume } } : { start: { goal: goal ?? 'Add subtraction to the calculator.' } }),
  });
  const pipeline = pipelineRunStateOf(rest.workflow ?? builtInWorkflow('plan'), result.state);
  const outcome = { ...result, state: pipeline, run: result.state } as FixtureOutcome;
  // The run's history, as its state keeps it.
  const items = (result.state.blackboard[HISTORY_KEY] ?? []) as readonly HistoryItem[];
  return { outcome, events, workflowEvents, reader, snapshot: { runId, items } };
}
