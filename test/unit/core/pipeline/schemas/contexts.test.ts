import { PreviousContext } from '../../../../../src/core/pipeline/schemas/previousContext';
import { PromptContext } from '../../../../../src/core/pipeline/schemas/promptContext';
import { UpstreamContext } from '../../../../../src/core/pipeline/schemas/upstreamContext';
import {
  AT,
  delegationTemplate,
  discoveryCollectorContext,
  discoveryReport,
  idOf,
  planningCollectorResult,
  ticket,
} from './fixtures';
import { assertIssue, assertValid } from './issues';

const planningAgentUpstream = () => ({
  kind: 'planning-agent' as const,
  contextId: idOf('planning-orchestrator'),
  assignment: {
    agentId: 'planner-1',
    agentType: 'planning-agent' as const,
    assignedGoal: 'Plan validation',
    contextToPass: {},
  },
  contextSelections: delegationTemplate().contextSelections,
  discovery: discoveryCollectorContext(),
});

const discoveryAgentPrevious = () => ({
  kind: 'discovery-agent' as const,
  previousContextId: idOf('discovery-agent'),
  serializedOutput: JSON.stringify(discoveryReport()),
  error: { message: 'fewer than 5 tags' },
  attemptNumber: 1,
  previousAttemptAt: AT,
  previousResult: discoveryReport(),
});

describe('UpstreamContext', () => {
  it('accepts each stage with the curated context it needs', () => {
    assertValid(UpstreamContext, {
      kind: 'orchestrator',
      contextId: idOf('orchestrator'),
      goal: 'Add input validation',
    });
    assertValid(UpstreamContext, planningAgentUpstream());
    const planning = planningCollectorResult().planningCuration;
    assertValid(UpstreamContext, {
      ...planningAgentUpstream(),
      kind: 'ticket-agent',
      assignment: { ...planningAgentUpstream().assignment, agentType: 'ticket-agent' },
      ticket: ticket('T-1'),
      planning,
    });
  });

  it('rejects an assignment addressed to another agent type', () => {
    const upstream = planningAgentUpstream();
    upstream.assignment = { ...upstream.assignment, agentType: 'ticket-agent' as 'planning-agent' };
    assertIssue(UpstreamContext, upstream, 'assignment.agentType', 'must carry a planning-agent assignment');
  });

  it('rejects a stage without the curated context it depends on, and unknown kinds', () => {
    const { discovery: _omitted, ...withoutDiscovery } = planningAgentUpstream();
    assertIssue(UpstreamContext, withoutDiscovery, 'discovery', '');
    assertIssue(UpstreamContext, { kind: 'janitor', contextId: idOf('orchestrator'), goal: 'x' }, 'kind', '');
  });
});

describe('PreviousContext', () => {
  it('accepts a failed attempt with its parsed result', () => {
    assertValid(PreviousContext, discoveryAgentPrevious());
  });

  it('requires the previous attempt to be by the same agent type', () => {
    assertIssue(
      PreviousContext,
      { ...discoveryAgentPrevious(), previousContextId: idOf('planning-agent') },
      'previousContextId',
      'discovery-agent',
    );
  });

  it('requires a typed previous result to be that attempt', () => {
    const previous = discoveryAgentPrevious();
    previous.previousContextId = idOf('discovery-agent', 2);
    assertIssue(PreviousContext, previous, 'previousResult.resultId', 'must be the previous attempt id');
  });

  it('rejects attempt numbers below 1 and blank output', () => {
    assertIssue(PreviousContext, { ...discoveryAgentPrevious(), attemptNumber: 0 }, 'attemptNumber', '>=1');
    assertIssue(PreviousContext, { ...discoveryAgentPrevious(), serializedOutput: ' ' }, 'serializedOutput', 'blank');
  });
});

describe('PromptContext', () => {
  const base = () => ({
    agentType: 'planning-agent' as const,
    currentContextId: idOf('planning-agent', 2),
    upstreamContext: planningAgentUpstream(),
    metadata: { goalLength: 42 },
  });

  it('accepts contexts addressed to the agent being prompted', () => {
    assertValid(PromptContext, base());
  });

  it('rejects an id, upstream or previous context meant for another agent', () => {
    assertIssue(
      PromptContext,
      { ...base(), currentContextId: idOf('ticket-agent') },
      'currentContextId',
      'names ticket-agent',
    );
    assertIssue(
      PromptContext,
      { ...base(), agentType: 'ticket-agent', currentContextId: idOf('ticket-agent') },
      'upstreamContext.kind',
      'is for planning-agent',
    );
    assertIssue(
      PromptContext,
      { ...base(), previousContext: discoveryAgentPrevious() },
      'previousContext.kind',
      'is for discovery-agent',
    );
  });
});
