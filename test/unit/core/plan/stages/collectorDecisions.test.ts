import assert from 'node:assert/strict';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import {
  discoveryCollectorDraft,
  pipelineModel,
  planningCollectorDraft,
  requestText,
  resultIdsIn,
  ticketCollectorDraft,
  agentIdIn,
} from '../../../../support/pipelineScript';
import { valueReply } from '../../../../support/scriptedModel';
import { REPETITION_BOUNDS } from '../../../../../src/core/workflow/engine/repetitionBounds';
import { phasesRun, runFixture } from './harness';

const nameOf = (r: { tools: readonly { name: string }[]; toolMode?: string }) =>
  r.toolMode === 'required' ? r.tools[0]?.name : undefined;

describe('collector decisions', () => {
  it('advance: each stage runs once', async () => {
    const model = pipelineModel();
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.equal(model.requests.filter(r => nameOf(r) === 'discovery_collector_result').length, 1);
  });

  it('rerun: only the named agent runs again, with its previous output and the feedback as PreviousContext', async () => {
    const model = pipelineModel({
      discovery_collector_result: (request, call) =>
        valueReply(
          discoveryCollectorDraft(
            resultIdsIn(request),
            call === 0
              ? { kind: 'rerun', rationale: 'Cover the lib helpers in more depth.', agentIds: ['discovery-2'] }
              : { kind: 'advance', rationale: 'ok' },
          ),
        ),
    });
    const { outcome, snapshot } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const reports = model.requests.filter(r => nameOf(r) === 'discovery_report');
    assert.equal(reports.length, 4, 'three first attempts and one rerun');
    const rerun = reports[3];
    assert.ok(rerun);
    assert.equal(agentIdIn({ messages: rerun.messages }), 'discovery-2');
    const text = requestText(rerun);
    assert.match(text, /Your previous attempt \(#1\)/);
    assert.match(text, /Cover the lib helpers in more depth/);
    assert.match(text, /architectureOverview/, 'the previous output is shown');
    const attempts = snapshot.items.filter(i => i.agentId === 'discovery-2');
    assert.equal(attempts.length, 2);
    assert.equal(readBoard(outcome.state.blackboard).stages.discovery?.rounds, 2);
    assert.equal(readBoard(outcome.state.blackboard).stages.discovery?.agentsSpawned, 4);
  });

  it('route_back: the ticket collector sends the run back to planning, which reruns with the feedback', async () => {
    const model = pipelineModel({
      ticket_collector_result: (request, call) =>
        valueReply(
          ticketCollectorDraft(
            resultIdsIn(request),
            call === 0
              ? { kind: 'route_back', target: 'planning', rationale: 'T-2 needs a formatting API first.' }
              : { kind: 'advance', rationale: 'ok' },
          ),
        ),
    });
    const { outcome, workflowEvents } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.state.routeBacks, 1);
    assert.ok(workflowEvents.some(e => e.kind === 'route-back' && e.from === 'tickets' && e.to === 'planning'));
    const planningAfter = model.requests.filter(r => nameOf(r) === 'planning_agent_result').slice(-1)[0];
    assert.ok(planningAfter);
    assert.match(requestText(planningAfter), /T-2 needs a formatting API first/);
    // The engine counts the passes once: planning and tickets ran twice, discovery once.
    assert.deepEqual(
      phasesRun(outcome.state).map(p => `${p.stage}:${p.passes}:${p.status}`),
      ['discovery:1:completed', 'planning:2:completed', 'tickets:2:completed'],
    );
    assert.equal(outcome.state.feedback, undefined, 'the route-back feedback was used up by the rerun');
  });

  it('a collector that keeps routing back: the second route-back is refused (REPETITION_BOUNDS.routeBacks) and the run completes', async () => {
    const model = pipelineModel({
      ticket_collector_result: request =>
        valueReply(
          ticketCollectorDraft(resultIdsIn(request), {
            kind: 'route_back',
            target: 'planning',
            rationale: 'T-2 needs a formatting API first.',
          }),
        ),
    });
    const { outcome, workflowEvents } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.equal(outcome.state.routeBacks, REPETITION_BOUNDS.routeBacks);
    assert.equal(workflowEvents.filter(e => e.kind === 'route-back').length, 1);
    const refused = workflowEvents.filter(e => e.kind === 'route-back-refused');
    assert.equal(refused.length, 1);
    assert.match(refused[0]?.kind === 'route-back-refused' ? refused[0].reason : '', /the most one run may \(1\)/);
    assert.deepEqual(
      phasesRun(outcome.state).map(p => `${p.stage}:${p.passes}`),
      ['discovery:1', 'planning:2', 'tickets:2'],
    );
  });

  it('a planning collector cannot route forward or to itself (schema repair)', async () => {
    const model = pipelineModel({
      planning_collector_result: (request, call) =>
        valueReply(
          planningCollectorDraft(
            resultIdsIn(request),
            [['T-1', 'T-2']],
            call === 0
              ? { kind: 'route_back', target: 'tickets', rationale: 'x' }
              : { kind: 'advance', rationale: 'ok' },
          ),
        ),
    });
    const { outcome } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
  });
});
