import * as assert from 'node:assert/strict';
import type { ModelRequest } from '../../../../src/core/llm/languageModel';
import { forecastFigures, forecastWorkflow } from '../../../../src/core/deepWork/workflowForecast';
import { REPETITION_BOUNDS } from '../../../../src/core/workflow/engine/repetitionBounds';
import type { WorkflowRunState } from '../../../../src/core/workflow/engine/workflowRunState';
import { builtInWorkflow } from '../../../support/builtInWorkflow';
import {
  agentIdIn,
  discoveryCollectorDraft,
  discoveryReportDraft,
  pipelineModel,
  planningCollectorDraft,
  resultIdsIn,
  ticketCollectorDraft,
} from '../../../support/pipelineScript';
import { valueReply, type Route, type ScriptedModel } from '../../../support/scriptedModel';
import { phasesRun, runFixture } from '../plan/stages/harness';

/** A context manager decision routing a rebuilt context to `targetAgentType`. */
const routeTo = (targetAgentType: string) =>
  valueReply({
    reason: `Route to ${targetAgentType}.`,
    next: {
      kind: 'route',
      targetAgentType,
      context: {
        goal: 'Add subtraction to src/util/math.ts.',
        summary: 'Discovery found the math helper.',
        instructions: 'Look at src/util first.',
        relevantItemIds: [],
        excludedItemIds: [],
      },
    },
  });

const toolOf = (r: ModelRequest) => (r.toolMode === 'required' ? r.tools?.[0]?.name : undefined);

/**
 * Runs /plan with `routes`, every checkpoint continued, and checks each turn against the forecast shown before it (at
 * the start and at each checkpoint, as the chat shows it): what the turn made is never more than the bound, the
 * phases it ran again included. Returns the run's state and its requests.
 */
async function withinBound(routes: Record<string, Route>): Promise<{ state: WorkflowRunState; model: ScriptedModel }> {
  const plan = builtInWorkflow('plan');
  const model = pipelineModel(routes);
  const turns: { readonly bound: number; readonly before: number; readonly phases: string }[] = [];
  const show = (state?: WorkflowRunState) => {
    const forecast = forecastWorkflow(plan, state);
    turns.push({
      bound: forecastFigures(forecast, undefined).most.requests,
      before: model.requests.length,
      phases: forecast.map(f => f.phase).join(', '),
    });
  };
  show();
  const { outcome } = await runFixture(model, {
    checkpoint: async (_pending, state) => {
      show(state);
      return 'continue';
    },
  });
  assert.equal(outcome.status, 'completed');
  turns.forEach((turn, i) => {
    const made = (turns[i + 1]?.before ?? model.requests.length) - turn.before;
    assert.ok(made <= turn.bound, `turn ${i + 1} (${turn.phases}): made ${made}, bound ${turn.bound}`);
  });
  return { state: outcome.state, model };
}

describe('the bound of a /plan forecast holds every repetition the engine allows (REPETITION_BOUNDS)', () => {
  it('reruns: collectors that ask for a rerun of every agent each round run to the bound (the repeats read as a loop: the context manager rebuilds one context)', async () => {
    const { model, state } = await withinBound({
      discovery_collector_result: request =>
        valueReply(
          discoveryCollectorDraft(resultIdsIn(request), { kind: 'rerun', rationale: 'Deeper.', agentIds: [] }),
        ),
      planning_collector_result: request =>
        valueReply(
          planningCollectorDraft(resultIdsIn(request), undefined, { kind: 'rerun', rationale: 'Again.', agentIds: [] }),
        ),
      route_context: routeTo('discovery-agent'),
    });
    const rounds = model.requests.filter(r => toolOf(r) === 'discovery_collector_result').length;
    // Planning's loop is routed back to discovery's agents: discovery runs twice, each pass to its bound.
    const [discovery] = phasesRun(state);
    assert.equal(discovery?.passes, 2);
    assert.equal(rounds, 2 * (REPETITION_BOUNDS.reruns + 1), 'the discovery collector ran every round it may');
  });

  it("a rebuilt context: an agent's own request sends it through the context manager and runs it again", async () => {
    const { model } = await withinBound({
      discovery_report: request =>
        valueReply({
          ...discoveryReportDraft(),
          ...(agentIdIn(request) === 'discovery-1'
            ? { contextRequest: { type: 'introspect_agent_context', reason: 'Lost.' } }
            : {}),
        }),
      route_context: routeTo('discovery-agent'),
    });
    assert.equal(model.requests.filter(r => toolOf(r) === 'route_context').length, REPETITION_BOUNDS.reconstructions);
  });

  it("a proceed: the context manager routes the collector's result on (its requests in the pass's bound)", async () => {
    const { model } = await withinBound({
      discovery_collector_result: request =>
        valueReply(discoveryCollectorDraft(resultIdsIn(request), { kind: 'proceed', rationale: 'Tell planning.' })),
      route_context: routeTo('planning-agent'),
    });
    assert.equal(model.requests.filter(r => toolOf(r) === 'route_context').length, 1);
  });

  it('a route-back: the ticket collector sends the run back to planning, which runs again, then tickets again', async () => {
    const { state } = await withinBound({
      ticket_collector_result: (request, call) =>
        valueReply(
          ticketCollectorDraft(
            resultIdsIn(request),
            call === 0 ? { kind: 'route_back', target: 'planning', rationale: 'Split T-2.' } : undefined,
          ),
        ),
    });
    assert.equal(state.routeBacks, REPETITION_BOUNDS.routeBacks);
    assert.deepEqual(
      phasesRun(state).map(p => p.passes),
      [1, 2, 2],
    );
  });

  it('a route-back to the first stage: a proceed at planning the context manager sends to discovery', async () => {
    const { state } = await withinBound({
      planning_collector_result: (request, call) =>
        valueReply(
          planningCollectorDraft(
            resultIdsIn(request),
            undefined,
            call === 0 ? { kind: 'proceed', rationale: 'Discovery missed lib/.' } : undefined,
          ),
        ),
      route_context: routeTo('discovery-agent'),
    });
    assert.equal(state.routeBacks, 1);
    assert.deepEqual(
      phasesRun(state).map(p => p.passes),
      [2, 2, 1],
    );
  });

  it('once the run has gone back, no forecast counts another route-back', () => {
    const plan = builtInWorkflow('plan');
    const state = { nextPhase: 'planning', context: { skip_phases: [] }, blackboard: {} };
    assert.ok(forecastWorkflow(plan, { ...state, routeBacks: 0 }).some(f => f.routeBack !== undefined));
    assert.ok(forecastWorkflow(plan, { ...state, routeBacks: 1 }).every(f => f.routeBack === undefined));
  });
});
