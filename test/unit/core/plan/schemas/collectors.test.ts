import {
  DiscoveryCollectorResult,
  discoveryCollectorSchema,
  PlanningCollectorResult,
  TicketCollectorResult,
} from '../../../../../src/core/plan/schemas/collectors';
import { PlanningAgentResult } from '../../../../../src/core/plan/schemas/planning';
import {
  discoveryCollectorResult,
  idOf,
  planningAgentResult,
  planningCollectorResult,
  ticket,
  ticketCollectorResult,
} from './fixtures';
import { assertIssue, assertValid } from './issues';

describe('collector results (ConsolidationTemplate)', () => {
  it('accepts complete discovery, planning and ticket collector results', () => {
    assertValid(DiscoveryCollectorResult, discoveryCollectorResult());
    assertValid(PlanningCollectorResult, planningCollectorResult());
    assertValid(TicketCollectorResult, ticketCollectorResult());
  });

  it('needs at least one input, each only once', () => {
    assertIssue(discoveryCollectorSchema(), { ...discoveryCollectorResult(), inputs: [] }, 'inputs', '>=1');
    const result = discoveryCollectorResult();
    result.inputs.push({ ...result.inputs[0]! });
    assertIssue(DiscoveryCollectorResult, result, 'inputs.2.inputContextId', 'duplicate inputContextId');
  });

  it('lets conflicts and recommendations cite only inputs', () => {
    const result = discoveryCollectorResult();
    result.conflictResolutions[0]!.conflictingInputs[1] = idOf('discovery-agent', 9);
    result.recommendations[0]!.supportingDiscoveryIds = [idOf('discovery-agent', 7)];
    assertIssue(
      DiscoveryCollectorResult,
      result,
      'conflictResolutions.0.conflictingInputs.1',
      'is not one of the inputs',
    );
    assertIssue(
      DiscoveryCollectorResult,
      result,
      'recommendations.0.supportingDiscoveryIds.0',
      'is not one of the inputs',
    );
  });

  it('accepts rerun and route-back decisions only where they make sense', () => {
    const rerun = discoveryCollectorResult();
    rerun.decision = { kind: 'rerun', rationale: 'tests not covered', agentIds: ['discovery-2'] };
    assertValid(DiscoveryCollectorResult, rerun);

    const discoveryBack = discoveryCollectorResult();
    discoveryBack.decision = { kind: 'route_back', target: 'discovery', rationale: 'again' };
    assertIssue(DiscoveryCollectorResult, discoveryBack, 'decision.kind', '');

    const planningBack = planningCollectorResult();
    planningBack.decision = { kind: 'route_back', target: 'discovery', rationale: 'missing module' };
    assertValid(PlanningCollectorResult, planningBack);
    planningBack.decision = { kind: 'route_back', target: 'tickets', rationale: 'forward is not back' };
    assertIssue(PlanningCollectorResult, planningBack, 'decision.target', '');
  });

  it('rejects a decision without its required fields', () => {
    const result = ticketCollectorResult() as unknown as { decision: unknown };
    result.decision = { kind: 'route_back', rationale: 'no target' };
    assertIssue(TicketCollectorResult, result, 'decision.target', '');
  });

  it("with a request's vocabulary, cites only its inputs and reruns only its agents", () => {
    const {
      discoveryCuration: _c,
      schemaVersion: _v,
      upstreamContextChain: _u,
      metadata: _m,
      resultId: _r,
      ...draft
    } = discoveryCollectorResult();
    const files = new Set(draft.unifiedCodeMap.deduplicatedReferences.map(ref => ref.filePath));
    const queryIds = draft.queryFindings.map(findings => findings.queryId);
    const inputIds = draft.inputs.map(input => input.inputContextId);
    const request = discoveryCollectorSchema({ inputIds, agentIds: ['discovery-1'], files, queryIds });
    assertValid(request, draft);
    assertIssue(
      request,
      { ...draft, decision: { kind: 'rerun', rationale: 'x', agentIds: ['ghost'] } },
      'decision.agentIds.0',
      '',
    );
    const other = discoveryCollectorSchema({ inputIds: inputIds.slice(1), agentIds: [], files, queryIds });
    assertIssue(other, draft, 'inputs.0.inputContextId', '');
  });

  it('requires recommendation and query finding ids to be unique', () => {
    const result = discoveryCollectorResult();
    result.recommendations.push({ ...result.recommendations[0]! });
    result.queryFindings.push({ ...result.queryFindings[0]! });
    assertIssue(DiscoveryCollectorResult, result, 'recommendations.1.recommendationId', 'duplicate');
    assertIssue(DiscoveryCollectorResult, result, 'queryFindings.1.queryId', 'duplicate');
  });
});

describe('planning', () => {
  it('requires tickets with tasks, criteria and a priority from 1 to 5', () => {
    const result = planningAgentResult();
    result.tickets[0]!.tasks = [];
    result.tickets[0]!.acceptanceCriteria = [];
    result.tickets[1]!.priority = 6;
    assertIssue(PlanningAgentResult, result, 'tickets.0.tasks', '>=1');
    assertIssue(PlanningAgentResult, result, 'tickets.0.acceptanceCriteria', '>=1');
    assertIssue(PlanningAgentResult, result, 'tickets.1.priority', '<=5');
  });

  it('rejects duplicate ticket and task ids and a ticket depending on itself', () => {
    const result = planningAgentResult();
    result.tickets[1]!.ticketId = 'T-1';
    result.tickets[0]!.tasks.push({ ...result.tickets[0]!.tasks[0]! });
    result.tickets[0]!.dependencies = ['T-1'];
    assertIssue(PlanningAgentResult, result, 'tickets.1.ticketId', 'duplicate ticketId "T-1"');
    assertIssue(PlanningAgentResult, result, 'tickets.0.tasks.1.taskId', 'duplicate');
    assertIssue(PlanningAgentResult, result, 'tickets.0.dependencies.0', 'cannot depend on itself');
  });

  it('lets an agent depend on tickets other agents propose, but not in a cycle among its own', () => {
    const result = planningAgentResult();
    result.tickets[0]!.dependencies = ['T-from-another-agent'];
    assertValid(PlanningAgentResult, result);
    result.tickets[0]!.dependencies = ['T-2'];
    assertIssue(PlanningAgentResult, result, 'tickets', 'cycle: T-1 -> T-2 -> T-1');
  });

  it('requires the finalized dependency graph to name known tickets and be acyclic', () => {
    const unknown = planningCollectorResult();
    unknown.dependencyGraph.push({ fromTicketId: 'T-9', toTicketId: 'T-1', dependencyType: 'blocks' });
    unknown.finalizedTickets[2] = ticket('T-3', ['T-8']);
    assertIssue(PlanningCollectorResult, unknown, 'dependencyGraph.1.fromTicketId', 'unknown ticket "T-9"');
    assertIssue(PlanningCollectorResult, unknown, 'finalizedTickets.2.dependencies.0', 'unknown ticket "T-8"');

    const cyclic = planningCollectorResult();
    cyclic.dependencyGraph.push({ fromTicketId: 'T-3', toTicketId: 'T-1', dependencyType: 'blocks' });
    assertIssue(PlanningCollectorResult, cyclic, 'dependencyGraph', 'cycle: T-1 -> T-2 -> T-3 -> T-1');
  });
});
