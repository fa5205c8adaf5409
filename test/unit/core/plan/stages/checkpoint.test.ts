import assert from 'node:assert/strict';
import { readBoard, skippedStages } from '../../../../../src/core/plan/pipelineBoard';
import { builtInWorkflow } from '../../../../support/builtInWorkflow';
import { pipelineModel, requestText, steppingClock } from '../../../../support/pipelineScript';
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

  it('redo with feedback: every stage, ticket work included, gives the typed feedback to its agents', async () => {
    // The built-in workflow pauses after discovery and planning; a workspace's plan.yaml may pause after tickets too.
    const plan = builtInWorkflow('plan');
    const workflow = {
      ...plan,
      phases: plan.phases.map(phase =>
        phase.id === 'tickets' ? { ...phase, checkpoint: { kind: 'approval' as const } } : phase,
      ),
    };
    const redone = new Set<string>();
    const model = pipelineModel();
    const { outcome } = await runFixture(model, {
      workflow,
      checkpoint: async ({ phase }) => {
        if (redone.has(phase)) return 'continue';
        redone.add(phase);
        return { action: 'redo', feedback: `Redo ${phase}: cover the error paths.` };
      },
    });
    assert.equal(outcome.status, 'completed');
    for (const [phase, agent] of [
      ['discovery', 'discovery_report'],
      ['planning', 'planning_agent_result'],
      ['tickets', 'ticket_agent_result'],
    ] as const) {
      const requests = model.requests.filter(r => r.toolMode === 'required' && r.tools[0]?.name === agent);
      const feedback = new RegExp(`Redo ${phase}: cover the error paths`);
      assert.ok(requests.length > 0, agent);
      assert.ok(
        requests.some(r => feedback.test(requestText(r))),
        `${phase}'s agents got the feedback`,
      );
      assert.match(requestText(requests.at(-1)!), feedback, `${phase}'s last run had it`);
    }
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
