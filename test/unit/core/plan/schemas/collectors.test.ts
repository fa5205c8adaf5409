import { strict as assert } from 'node:assert';
import {
  DiscoveryCollectorResult,
  DiscoveryCollectorResultDraft,
  PlanningCollectorResult,
  TicketCollectorResult,
} from '../../../../../src/core/plan/schemas/collectors';
import { PlanningCuration } from '../../../../../src/core/plan/schemas/curation';
import { PlanningAgentResult } from '../../../../../src/core/plan/schemas/planning';
import {
  discoveryCollectorResult,
  idOf,
  planningAgentResult,
  planningCollectorResult,
  ticket,
  ticketCollectorResult,
} from './fixtures';
import { assertIssue, assertValid, issuesOf } from './issues';

describe('collector results (ConsolidationTemplate)', () => {
  it('accepts complete discovery, planning and ticket collector results', () => {
    assertValid(DiscoveryCollectorResult, discoveryCollectorResult());
    assertValid(PlanningCollectorResult, planningCollectorResult());
    assertValid(TicketCollectorResult, ticketCollectorResult());
  });

  it('needs at least one input, each only once', () => {
    assertIssue(DiscoveryCollectorResultDraft, { ...discoveryCollectorResult(), inputs: [] }, 'inputs', '>=1');
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
    assertIssue(DiscoveryCollectorResult, discoveryBack, 'decision.target', 'only route back to an earlier stage');

    const planningBack = planningCollectorResult();
    planningBack.decision = { kind: 'route_back', target: 'discovery', rationale: 'missing module' };
    assertValid(PlanningCollectorResult, planningBack);
    planningBack.decision = { kind: 'route_back', target: 'tickets', rationale: 'forward is not back' };
    assertIssue(PlanningCollectorResult, planningBack, 'decision.target', 'not tickets');
  });

  it('rejects a decision without its required fields', () => {
    const result = ticketCollectorResult() as unknown as { decision: unknown };
    result.decision = { kind: 'route_back', rationale: 'no target' };
    assertIssue(TicketCollectorResult, result, 'decision.target', '');
  });

  it('requires each curated context to point at its own collector result', () => {
    const result = discoveryCollectorResult();
    result.discoveryCuration.sourceResultId = idOf('discovery-collector', 5);
    assertIssue(DiscoveryCollectorResult, result, 'discoveryCuration.sourceResultId', 'must be this result');
    const tickets = ticketCollectorResult();
    tickets.ticketCuration.sourceResultId = idOf('ticket-collector', 5);
    assertIssue(TicketCollectorResult, tickets, 'ticketCuration.sourceResultId', 'must be this result');
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

  it('keeps the curated plan on the same discovery result', () => {
    const result = planningCollectorResult();
    result.planningCuration.curation.discoveryResultId = idOf('discovery-collector', 4);
    assertIssue(PlanningCollectorResult, result, 'planningCuration.curation.discoveryResultId', 'must be');
  });

  it('allows a curated plan to drop tickets but never to contain a cycle', () => {
    const curation = planningCollectorResult().planningCuration.curation;
    curation.dependencyGraph = [{ fromTicketId: 'T-1', toTicketId: 'T-omitted', dependencyType: 'blocks' }];
    assertValid(PlanningCuration, curation);
    curation.dependencyGraph.push({ fromTicketId: 'T-omitted', toTicketId: 'T-1', dependencyType: 'blocks' });
    assert.match(issuesOf(PlanningCuration, curation).join(), /cycle: T-1 -> T-omitted -> T-1/);
  });
});
