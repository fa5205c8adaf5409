import assert from 'node:assert/strict';
import { describeModelFailure } from '../../../../src/core/llm/failureMessages';
import { LanguageModelFailure, type ModelFailureKind } from '../../../../src/core/llm/languageModel';

const ALL_KINDS: readonly ModelFailureKind[] = [
  'noPermissions',
  'blocked',
  'rateLimited',
  'quotaExceeded',
  'tooLarge',
  'notFound',
  'offTopic',
  'cancelled',
  'malformedReply',
  'unknown',
];

describe('describeModelFailure', () => {
  it('tells the user what to do next for every failure kind', () => {
    for (const kind of ALL_KINDS) {
      const message = describeModelFailure(new LanguageModelFailure(kind, 'raw provider text'));
      assert.match(message, /Try again/, `${kind} should point at the Try again follow-up`);
    }
  });

  it('gives each failure kind its own explanation', () => {
    const messages = new Set(ALL_KINDS.map(kind => describeModelFailure(new LanguageModelFailure(kind, ''))));
    assert.equal(messages.size, ALL_KINDS.length);
  });

  it('explains a blocked request as a refusal and suggests another model', () => {
    const message = describeModelFailure(new LanguageModelFailure('blocked', 'Blocked'));
    assert.equal(
      message,
      'The model refused this request under its content policy. Rephrase the request or pick another model in the model picker, then press Try again.',
    );
  });

  it('quotes the provider message only for unknown failures', () => {
    assert.match(
      describeModelFailure(new LanguageModelFailure('unknown', 'socket hang up')),
      /Details: socket hang up/,
    );
    assert.doesNotMatch(describeModelFailure(new LanguageModelFailure('notFound', 'socket hang up')), /socket hang up/);
  });

  it('leaves out an empty detail for unknown failures', () => {
    assert.doesNotMatch(describeModelFailure(new LanguageModelFailure('unknown', '  ')), /Details/);
  });
});
