import assert from 'node:assert/strict';
import { readBoard, skippedStages } from '../../../../../src/core/plan/pipelineBoard';
import { builtInWorkflow } from '../../../../support/builtInWorkflow';
import { pipelineModel, steppingClock } from '../../../../support/pipelineScript';
import { phasesRun, runFixture, type CheckpointAnswer } from './harness';

const count = (model: ReturnType<typeof pipelineModel>, name: string) =>
  model.requests.filter(r => r.toolMode === 'required' && r.tools[0]?.name === name).length;

function answering(answers: Partial<Record<string, CheckpointAnswer[]>>) {
  const seen: string[] = [];
  return {
    seen,
    checkpoint: async ({ phase }: { phase: string }) => {
      seen.push(phase);
      return answers[phase]?.shift() ?? 'continue';
    },
  };
}

describe('checkpoints between stages', () => {
  it('continue: asks after discovery and planning (the checkpoints of the built-in plan workflow)', async () => {
    const { seen, checkpoint } = answering({});
    const { outcome } = await runFixture(pipelineModel(), { checkpoint });
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(seen, ['discovery', 'planning']);
    assert.deepEqual(
      outcome.state.context.checkpoints.map(record => [record.phase, record.decision]),
      [
        ['discovery', 'continue'],
        ['planning', 'continue'],
      ],
    );
  });

  it('redo: runs the stage again', async () => {
    const { seen, checkpoint } = answering({ discovery: ['redo'] });
    const model = pipelineModel();
    const { outcome } = await runFixture(model, { checkpoint });
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(seen, ['discovery', 'discovery', 'planning']);
    assert.equal(outcome.state.context.phases.iteration_counts['discovery'], 2);
    assert.deepEqual(
      phasesRun(outcome.state).map(phase => [phase.stage, phase.passes]),
      [
        ['discovery', 2],
        ['planning', 1],
        ['tickets', 1],
      ],
    );
    assert.equal(count(model, 'discovery_collector_result'), 2);
  });

  it('skipNext: finishes after this stage and marks the rest skipped', async () => {
    const { checkpoint } = answering({ discovery: ['skipNext'] });
    const model = pipelineModel();
    const { outcome } = await runFixture(model, { checkpoint });
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(skippedStages(builtInWorkflow('plan'), outcome.state), ['planning', 'tickets']);
    assert.equal(count(model, 'planning_agent_result'), 0);
    // The report's phases read as the run's metadata.json does: the skipped stages say so.
    assert.deepEqual(
      phasesRun(outcome.state).map(phase => [phase.stage, phase.status, phase.passes]),
      [
        ['discovery', 'completed', 1],
        ['planning', 'skipped', 0],
        ['tickets', 'skipped', 0],
      ],
    );
  });

  it('abort: stops with a state that resumes at the next stage without redoing the last', async () => {
    const { checkpoint } = answering({ discovery: ['abort'] });
    const first = await runFixture(pipelineModel(), { checkpoint });
    assert.equal(first.outcome.status, 'aborted');
    assert.equal(first.outcome.state.nextPhase, 'planning');
    const model = pipelineModel();
    const { outcome: resumed } = await runFixture(model, {
      clock: steppingClock(Date.parse('2026-01-19T12:00:00.000Z')),
      resume: JSON.parse(JSON.stringify(first.outcome.state)),
    });
    assert.equal(resumed.status, 'completed');
    assert.equal(count(model, 'discovery_report'), 0, 'discovery is not redone');
    assert.ok(readBoard(resumed.state.blackboard).stages.tickets);
  });
});
