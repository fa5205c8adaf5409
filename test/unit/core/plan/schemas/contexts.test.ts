import { PreviousContext } from '../../../../../src/core/plan/schemas/previousContext';
import { PromptContext } from '../../../../../src/core/plan/schemas/promptContext';
import { AT, discoveryReport, idOf } from './fixtures';
import { assertIssue, assertValid } from './issues';

const discoveryAgentPrevious = () => ({
  kind: 'discovery-agent' as const,
  previousContextId: idOf('discovery-agent'),
  serializedOutput: JSON.stringify(discoveryReport()),
  error: { message: 'fewer than 5 tags' },
  attemptNumber: 1,
  previousAttemptAt: AT,
  previousResult: discoveryReport(),
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
    metadata: { goalLength: 42 },
  });

  it('accepts contexts addressed to the agent being prompted', () => {
    assertValid(PromptContext, base());
  });

  it('rejects an id or previous context meant for another agent', () => {
    assertIssue(
      PromptContext,
      { ...base(), currentContextId: idOf('ticket-agent') },
      'currentContextId',
      'names ticket-agent',
    );
    assertIssue(
      PromptContext,
      { ...base(), previousContext: discoveryAgentPrevious() },
      'previousContext.kind',
      'is for discovery-agent',
    );
  });
});
