import assert from 'node:assert/strict';
import { PipelineBoard, readBoard } from '../../../../../src/core/plan/pipelineBoard';
import { pipelineModel, requestText } from '../../../../support/pipelineScript';
import { requestedName } from '../../../../support/scriptedModel';
import { phasesRun, runFixture } from './harness';
import { runSpent, WorkflowRunState } from '../../../../../src/core/workflow/engine/workflowRunState';
import { parseWorkflow } from '../../../../../src/core/workflow/definition/parseWorkflow';
import { DEEP_WORK_AGENT_TYPES } from '../../../../../src/core/deepWork/runDeepWork';

describe('runPipeline: discovery -> planning -> tickets', () => {
  it('a workflow that runs a stage without the one before it fails saying which to run first', async () => {
    const onlyStage = (type: string) => {
      const yaml = `name: ${type}-only\ndescription: One stage alone.\nphases:\n  - id: alone\n    name: Alone\n    description: It.\n    behavior: sequential\n    subagents:\n      - type: ${type}\n`;
      const parsed = parseWorkflow(
        yaml,
        { kind: 'built-in', path: `${type}-only.yaml` },
        { knownTypes: DEEP_WORK_AGENT_TYPES },
      );
      assert.ok(parsed.ok);
      return parsed.workflow;
    };
    for (const [type, message] of [
      ['planning-stage', /^Planning needs the discovery stage's result.*Run discovery first\.$/],
      ['ticket-stage', /^Ticket work needs the discovery and planning stages' results.*Run them first\.$/],
    ] as const) {
      const model = pipelineModel({});
      const { outcome } = await runFixture(model, { workflow: onlyStage(type) });
      assert.equal(outcome.status, 'failed', type);
      assert.match(outcome.status === 'failed' ? outcome.message : '', message);
      assert.equal(model.callCount, 0, 'nothing is asked of the model');
    }
  });

  it('runs every stage and ends with tickets, a dependency graph and proposed changes', async () => {
    const model = pipelineModel();
    const { outcome, snapshot } = await runFixture(model);
    assert.equal(outcome.status, 'completed', JSON.stringify(outcome).slice(0, 500));
    const { stages } = readBoard(outcome.state.blackboard);
    assert.equal(stages.discovery?.reports.length, 3, 'three areas: src, lib, docs');
    assert.deepEqual(
      stages.planning?.result.finalizedTickets.map(t => t.ticketId),
      ['T-1', 'T-2'],
    );
    assert.deepEqual(
      stages.planning?.result.dependencyGraph.map(e => [e.fromTicketId, e.toTicketId]),
      [['T-1', 'T-2']],
    );
    assert.equal(stages.tickets?.agentResults.length, 2);
    assert.deepEqual(stages.tickets?.agentResults.map(r => r.ticketId).sort(), ['T-1', 'T-2']);
    assert.equal(outcome.state.nextPhase, null);
    const spent = runSpent(outcome.state);
    assert.equal(spent.requests, model.callCount, 'the ledger counts every request once');
    assert.ok(spent.inputTokens > 0);
    const agents = snapshot.items.map(item => item.agentId);
    for (const id of [
      'discovery-1',
      'discovery-2',
      'discovery-3',
      'discovery-collector',
      'planning-1',
      'planning-2',
      'planning-collector',
      'ticket-1',
      'ticket-2',
      'ticket-collector',
    ]) {
      assert.ok(agents.includes(id), `history records ${id}`);
    }
    assert.ok(snapshot.items.every(item => item.outcome.status === 'succeeded'));
  });

  it('keeps a serialisable, zod-valid state', async () => {
    const { outcome } = await runFixture(pipelineModel());
    const roundTripped = WorkflowRunState.parse(JSON.parse(JSON.stringify(outcome.state)));
    assert.deepEqual(roundTripped, outcome.state);
    const board = readBoard(outcome.state.blackboard);
    assert.deepEqual(PipelineBoard.parse(board), board, 'the board is a valid part of the run state');
    assert.deepEqual(
      phasesRun(outcome.state).map(p => [p.stage, p.status, p.passes]),
      [
        ['discovery', 'completed', 1],
        ['planning', 'completed', 1],
        ['tickets', 'completed', 1],
      ],
    );
  });

  it('sends only the curated context downstream, never the discovery reports', async () => {
    const model = pipelineModel();
    await runFixture(model);
    const planningPrompts = model.requests.filter(
      r => requestedName({ messages: r.messages, tools: r.tools, toolMode: r.toolMode }) === 'planning_agent_result',
    );
    assert.ok(planningPrompts.length > 0);
    for (const prompt of planningPrompts) {
      const text = requestText(prompt);
      assert.doesNotMatch(text, /The app entry point calls a math helper/, 'report overview stays out');
      assert.match(text, /Add subtraction/, 'recommendations go in');
      assert.doesNotMatch(text, /"discoveryReports"/, 'no curated reports: not even an empty list');
      // The consolidation's bookkeeping stays in the record; its summary goes in.
      assert.doesNotMatch(text, /upstreamContextChain|"mergeStrategy"|"aggregatedMetrics"/);
      assert.match(text, /"consolidatedOutput":"Consolidated\."/);
    }
  });

  it('tells an agent about the read-only tools only in the requests that offer them', async () => {
    const model = pipelineModel();
    await runFixture(model);
    const guided = (request: (typeof model.requests)[number]) =>
      requestText(request).includes('source="tool-guidance"');
    const offering = model.requests.filter(r => r.tools?.some(tool => tool.name === 'read_file_range'));
    assert.ok(offering.length > 0);
    for (const request of offering) assert.ok(guided(request), 'an exploring request names its tools');
    const reports = model.requests.filter(r => !r.tools?.some(tool => tool.name === 'read_file_range'));
    assert.ok(
      reports.some(r => /You are (discovery|ticket) agent/.test(requestText(r))),
      'explorers report too',
    );
    for (const request of reports) assert.ok(!guided(request), `no tool guidance beside ${request.tools?.[0]?.name}`);
  });
});
