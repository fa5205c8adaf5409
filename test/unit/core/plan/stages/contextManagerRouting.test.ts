import assert from 'node:assert/strict';
import type { ModelRequest } from '../../../../../src/core/llm/languageModel';
import { readBoard } from '../../../../../src/core/plan/pipelineBoard';
import { REPETITION_BOUNDS } from '../../../../../src/core/workflow/engine/repetitionBounds';
import {
  agentIdIn,
  discoveryCollectorDraft,
  discoveryReportDraft,
  pipelineModel,
  planningAgentDraft,
  planningCollectorDraft,
  requestText,
  resultIdsIn,
} from '../../../../support/pipelineScript';
import { valueReply } from '../../../../support/scriptedModel';
import { phasesRun, runFixture } from './harness';

/** A context manager decision routing a rebuilt context to `targetAgentType`. */
function routeTo(targetAgentType: string, instructions: string) {
  return valueReply({
    reason: `Route to ${targetAgentType}.`,
    next: {
      kind: 'route',
      targetAgentType,
      context: {
        goal: 'Add subtraction to src/util/math.ts.',
        summary: 'Discovery found the math helper.',
        instructions,
        relevantItemIds: [],
        excludedItemIds: [],
      },
    },
  });
}

const toolOf = (r: { readonly tools: readonly { readonly name: string }[]; readonly toolMode?: string }) =>
  r.toolMode === 'required' ? r.tools[0]?.name : undefined;

/** The context manager's recorded requests (spec 001 ContextManagerRequest), as the run's history keeps them. */
function contextManagerInputs(items: readonly { agentType: string; input: unknown }[]) {
  return items
    .filter(item => item.agentType === 'context-manager')
    .map(
      item => item.input as { contextId: string; type: string; reason: string; agentId: string; returnTo: string[] },
    );
}

describe('the context manager (spec 001): agent requests, PROCEED, destinations and bounds', () => {
  it("an agent asks for reconstruction in its reply: the context manager rebuilds its context and it runs once more; the request never enters the agent's result", async () => {
    const asks = new Map<string, number>();
    const model = pipelineModel({
      discovery_report: (request: ModelRequest) => {
        const agent = agentIdIn(request);
        const n = (asks.get(agent) ?? 0) + 1;
        asks.set(agent, n);
        return valueReply(
          agent === 'discovery-2' && n === 1
            ? {
                ...discoveryReportDraft(),
                contextRequest: { type: 'introspect_agent_context', reason: 'Which module does the goal mean?' },
              }
            : discoveryReportDraft(),
        );
      },
      route_context: routeTo('discovery-agent', 'Map src/util only.'),
    });
    const { outcome, snapshot, events, board } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const reportTool = model.requests.find(r => toolOf(r) === 'discovery_report')?.tools[0];
    const properties = (reportTool?.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
    assert.ok('contextRequest' in properties, "the agent's reply schema offers contextRequest");
    assert.ok(
      events.some(e => e.kind === 'context-requested' && e.agentId === 'discovery-2'),
      'the request is reported',
    );
    assert.deepEqual(
      contextManagerInputs(snapshot.items).map(i => [i.type, i.agentId, i.reason]),
      [['introspect_agent_context', 'discovery-2', 'Which module does the goal mean?']],
    );
    assert.deepEqual(
      snapshot.items.filter(i => i.inputType === 'DiscoveryAgentRequest+ReconstructedContext').map(i => i.agentId),
      ['discovery-2'],
    );
    const guided = model.requests.find(
      r => agentIdIn(r) === 'discovery-2' && requestText(r).includes('Map src/util only.'),
    );
    assert.ok(guided, 'the reconstructed context reaches the asking agent');
    assert.ok(
      board.stages.discovery?.reports.every(report => !('contextRequest' in report)),
      "the request is kept beside the agent's result, not in it",
    );
  });

  it('reconstructions stop at REPETITION_BOUNDS.reconstructions per stage pass: an agent that keeps asking keeps its result', async () => {
    const model = pipelineModel({
      discovery_report: (request: ModelRequest) =>
        valueReply(
          agentIdIn(request) === 'discovery-1'
            ? { ...discoveryReportDraft(), contextRequest: { type: 'introspect_agent_context', reason: 'Still lost.' } }
            : discoveryReportDraft(),
        ),
      route_context: routeTo('discovery-agent', 'Read src/app.ts first.'),
    });
    const { outcome, snapshot, events } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.equal(contextManagerInputs(snapshot.items).length, REPETITION_BOUNDS.reconstructions);
    const limit = events.find(e => e.kind === 'limit-reached' && e.stage === 'discovery');
    assert.ok(limit && limit.kind === 'limit-reached');
    assert.match(limit.message, /discovery-1 needs its context rebuilt, but the context manager already rebuilt one/);
    assert.equal(snapshot.items.filter(i => i.agentId === 'discovery-1').length, 2, 'first attempt and one re-run');
  });

  it("PROCEED: a collector's proceed routes its result on to the next stage's agents with a rebuilt context (transition 2)", async () => {
    const model = pipelineModel({
      discovery_collector_result: request =>
        valueReply(
          discoveryCollectorDraft(resultIdsIn(request), {
            kind: 'proceed',
            rationale: 'Planning needs to know the math helper has no tests.',
          }),
        ),
      route_context: routeTo('planning-agent', 'Plan a test file for the math helper first.'),
    });
    const { outcome, snapshot, events, board, workflowEvents } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const collectorPrompt = model.requests.find(r => toolOf(r) === 'discovery_collector_result');
    assert.match(requestText(collectorPrompt!), /"proceed" instead of "advance"/);
    assert.deepEqual(
      contextManagerInputs(snapshot.items).map(i => [i.type, i.agentId, i.returnTo]),
      [['proceed', 'discovery-collector', ['planning-agent']]],
    );
    assert.ok(events.some(e => e.kind === 'context-manager' && e.outcome === 'route' && e.to === 'planning-agent'));
    const planningPrompts = model.requests.filter(r => toolOf(r) === 'planning_agent_result');
    assert.ok(planningPrompts.length > 0);
    for (const prompt of planningPrompts)
      assert.match(requestText(prompt), /Plan a test file for the math helper first\./, 'every planning agent gets it');
    assert.ok(
      snapshot.items.some(i => i.inputType === 'PlanningAgentRequest+ReconstructedContext'),
      'recorded as a reconstructed-context request',
    );
    assert.equal(board.handoff, undefined, 'the planning stage consumed the routed context');
    assert.equal(outcome.state.routeBacks, 0);
    assert.equal(workflowEvents.filter(e => e.kind === 'route-back').length, 0);
  });

  it("routes to another destination: a planning collector's proceed the context manager sends back to discovery's agents (a route-back with the rebuilt context)", async () => {
    const model = pipelineModel({
      planning_collector_result: (request, call) =>
        valueReply(
          planningCollectorDraft(
            resultIdsIn(request),
            [['T-1', 'T-2']],
            call === 0
              ? { kind: 'proceed', rationale: 'The tickets rest on a module discovery never mapped.' }
              : { kind: 'advance', rationale: 'ok' },
          ),
        ),
      route_context: routeTo('discovery-agent', 'Map lib/format.ts as well.'),
    });
    const { outcome, snapshot, workflowEvents } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(contextManagerInputs(snapshot.items)[0]?.returnTo, ['ticket-agent', 'discovery-agent']);
    assert.ok(workflowEvents.some(e => e.kind === 'route-back' && e.from === 'planning' && e.to === 'discovery'));
    assert.equal(outcome.state.routeBacks, 1);
    const rerunDiscovery = snapshot.items.filter(i => i.inputType === 'DiscoveryAgentRequest+ReconstructedContext');
    assert.equal(
      rerunDiscovery.length,
      3,
      "every discovery agent of the second pass got the context manager's context",
    );
    assert.ok(
      model.requests.some(
        r => toolOf(r) === 'discovery_report' && requestText(r).includes('Map lib/format.ts as well.'),
      ),
    );
    assert.deepEqual(
      phasesRun(outcome.state).map(p => `${p.stage}:${p.passes}:${p.status}`),
      ['discovery:2:completed', 'planning:2:completed', 'tickets:1:completed'],
    );
  });

  it('an agent asking in a later stage may be routed back to an earlier stage; a second route-back is refused at REPETITION_BOUNDS.routeBacks', async () => {
    const model = pipelineModel({
      planning_agent_result: (request: ModelRequest) => {
        const prefix = /ids "([\w-]+)1"/.exec(requestText(request))?.[1] ?? 'P1-T';
        return valueReply(
          requestText(request).includes('Reconstructed context')
            ? planningAgentDraft(prefix)
            : {
                ...planningAgentDraft(prefix),
                contextRequest: { type: 'introspect_agent_context', reason: 'Discovery never looked at lib/.' },
              },
        );
      },
      route_context: routeTo('discovery-agent', 'Map lib/ too.'),
    });
    const { outcome, snapshot, workflowEvents, board } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const inputs = contextManagerInputs(snapshot.items);
    assert.deepEqual(
      inputs[0]?.returnTo,
      ['planning-agent', 'planning-collector', 'discovery-agent'],
      "its own stage's agents and collector first",
    );
    assert.equal(workflowEvents.filter(e => e.kind === 'route-back').length, REPETITION_BOUNDS.routeBacks);
    const refused = workflowEvents.filter(e => e.kind === 'route-back-refused');
    assert.equal(refused.length, 1, "the second pass's route-back is refused");
    assert.match(refused[0]?.kind === 'route-back-refused' ? refused[0].reason : '', /the most one run may \(1\)/);
    assert.equal(outcome.state.routeBacks, 1);
    assert.equal(board.handoff, undefined, 'a context routed by a refused route-back is consumed by the next stage');
    assert.deepEqual(
      phasesRun(outcome.state).map(p => `${p.stage}:${p.passes}`),
      ['discovery:2', 'planning:2', 'tickets:1'],
    );
    assert.equal(readBoard(outcome.state.blackboard).stages.tickets !== undefined, true);
  });
  it("routes to this stage's collector: the agent is not re-run, the collector consolidates with the rebuilt context; the request has its own context id (spec 001 ContextManagerRequest)", async () => {
    const model = pipelineModel({
      discovery_report: (request: ModelRequest) =>
        valueReply(
          agentIdIn(request) === 'discovery-1'
            ? {
                ...discoveryReportDraft(),
                contextRequest: { type: 'introspect_agent_context', reason: 'Is src/ all?' },
              }
            : discoveryReportDraft(),
        ),
      route_context: routeTo('discovery-collector', 'Weigh discovery-1 lightly: it mapped src/ only.'),
    });
    const { outcome, snapshot } = await runFixture(model);
    assert.equal(outcome.status, 'completed');
    const [asked] = contextManagerInputs(snapshot.items);
    assert.deepEqual(asked?.returnTo, ['discovery-agent', 'discovery-collector']);
    assert.match(asked?.contextId ?? '', /^wf-[0-9a-f-]{36}\/context-manager\/\d+\//, 'a context id of its own');
    const item = snapshot.items.find(i => i.agentType === 'context-manager');
    assert.equal(item?.contextId, asked?.contextId, "its history item carries the request's id");
    assert.equal(snapshot.items.filter(i => i.agentId === 'discovery-1').length, 1, 'the agent is not re-run');
    assert.deepEqual(
      snapshot.items.filter(i => i.agentId === 'discovery-collector').map(i => i.inputType),
      ['DiscoveryCollectorRequest+ReconstructedContext'],
    );
    const collectorPrompt = model.requests.find(r => toolOf(r) === 'discovery_collector_result');
    assert.match(requestText(collectorPrompt!), /Weigh discovery-1 lightly/);
  });
});
