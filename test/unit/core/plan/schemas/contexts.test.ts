import { PreviousContext } from '../../../../../src/core/plan/schemas/previousContext';
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

  it('rejects attempt numbers below 1 and blank output', () => {
    assertIssue(PreviousContext, { ...discoveryAgentPrevious(), attemptNumber: 0 }, 'attemptNumber', '>=1');
    assertIssue(PreviousContext, { ...discoveryAgentPrevious(), serializedOutput: ' ' }, 'serializedOutput', 'blank');
  });

  it('the result it carries must be the attempt it names, not another one', () => {
    assertIssue(
      PreviousContext,
      { ...discoveryAgentPrevious(), previousResult: { ...discoveryReport(), resultId: idOf('discovery-agent', 2) } },
      'previousResult.resultId',
      'is not the previous attempt',
    );
  });
});
