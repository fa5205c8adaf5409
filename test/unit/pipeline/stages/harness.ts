import { neverCancelled, type CancellationSignal } from '../../../../src/core/llm/languageModel';
import { UsageTally } from '../../../../src/core/llm/usage';
import { runPipeline, type PipelineRunRequest } from '../../../../src/core/pipeline/run/runPipeline';
import type { PipelineRunOutcome } from '../../../../src/core/pipeline/run/runOutcome';
import type { PipelineProgressEvent } from '../../../../src/core/pipeline/stages/progressEvents';
import type { ScriptedModel } from '../../../support/scriptedModel';
import { counterIds, fixtureReader, newHistory, steppingClock } from '../../../support/pipelineScript';

/** One pipeline run over the fixture workspace with a scripted model, plus everything a test inspects. */
export async function runFixture(model: ScriptedModel, overrides: Partial<PipelineRunRequest> = {}, token: CancellationSignal = neverCancelled) {
  const clock = steppingClock();
  const ids = counterIds();
  const history = overrides.history ?? newHistory(clock, ids);
  const events: PipelineProgressEvent[] = [];
  const usage = new UsageTally();
  const reader = fixtureReader();
  const outcome: PipelineRunOutcome = await runPipeline({
    goal: 'Add subtraction to the calculator.',
    model,
    reader,
    history,
    clock,
    ids,
    token,
    usage,
    onProgress: event => events.push(event),
    ...overrides,
  });
  return { outcome, history, events, usage, reader, snapshot: await history.snapshot() };
}
