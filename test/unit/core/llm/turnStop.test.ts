import assert from 'node:assert/strict';
import { describeModelFailure, markdownSafe } from '../../../../src/core/llm/failureMessages';
import { CancelledError, LanguageModelFailure } from '../../../../src/core/llm/languageModel';
import { failureKindOf, retryAfterSeconds, toModelError } from '../../../../src/core/llm/modelErrors';
import { describeTurnStop } from '../../../../src/core/llm/turnStop';
import { CouncilStepRejected, newCouncilSession, runCouncilTurn } from '../../../../src/core/council/councilTurn';
import { SessionLog } from '../../../../src/core/council/sessionLog';
import { ActionableError } from '../../../../src/core/actionableError';
import { councilResponder, councilRig } from '../../../support/councilHarness';

/** An error shaped like vscode.LanguageModelError (name 'LanguageModelError', a `code`). */
function providerError(code: string, message: string, cause?: Error): Error {
  const error = new Error(message, cause ? { cause } : undefined) as Error & { code: string };
  error.name = 'LanguageModelError';
  error.code = code;
  return error;
}

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

const kept = { kept: 'The session is saved.', button: 'Try again' };

describe('model errors: one mapping from what a provider throws to what the user reads', () => {
  it('maps LanguageModelError codes and Copilot error names to their own kinds', () => {
    assert.equal(failureKindOf(providerError('NoPermissions', 'no consent')), 'noPermissions');
    assert.equal(failureKindOf(providerError('NotFound', 'gone')), 'notFound');
    assert.equal(failureKindOf(providerError('Blocked', 'Response got filtered')), 'blocked');
    assert.equal(
      failureKindOf(named('ChatQuotaExceeded', 'You have exceeded your premium request allowance')),
      'quotaExceeded',
    );
    assert.equal(failureKindOf(named('ChatRateLimited', 'Sorry, you have been rate-limited')), 'rateLimited');
    assert.equal(
      failureKindOf(
        providerError(
          'Blocked',
          'Request was temporarily blocked due to making too many requests. Please retry after 30 seconds.',
        ),
      ),
      'rateLimited',
    );
    assert.equal(failureKindOf(new Error('Message exceeds token limit.')), 'tooLarge');
    assert.equal(
      failureKindOf(providerError('Unknown', 'wrapped', named('ChatQuotaExceeded', 'quota'))),
      'quotaExceeded',
    );
    assert.equal(failureKindOf(new Error('socket hang up')), 'unknown');
  });

  it('reads how long to wait when the provider says', () => {
    assert.equal(retryAfterSeconds('Please retry after 30 seconds.'), 30);
    assert.equal(retryAfterSeconds('Retry-After: 12'), 12);
    assert.equal(retryAfterSeconds('try again in 2 minutes'), 120);
    assert.equal(retryAfterSeconds('retry after 1500 ms'), 2);
    assert.equal(retryAfterSeconds('rate limited'), undefined);
    const failure = toModelError(
      providerError('Blocked', 'temporarily blocked due to too many requests, retry after 45 seconds'),
    );
    assert.ok(failure instanceof LanguageModelFailure);
    assert.equal(failure.retryAfterSeconds, 45);
    assert.equal(
      describeModelFailure(failure),
      'The model provider is limiting how fast Council may send requests. Wait 45 seconds, then press Try again.',
    );
  });

  it('gives quota, rate limit and token limit each a message that says what to do', () => {
    assert.match(
      describeModelFailure(new LanguageModelFailure('quotaExceeded', '')),
      /usage for this model is used up.*included in your plan/,
    );
    assert.match(
      describeModelFailure(new LanguageModelFailure('rateLimited', '')),
      /Wait a minute, then press Try again/,
    );
    assert.match(describeModelFailure(new LanguageModelFailure('tooLarge', '')), /context window/);
    assert.match(describeModelFailure(new LanguageModelFailure('noPermissions', '')), /Allow access/);
  });

  it('cancellation wins over the error thrown', () => {
    assert.ok(
      toModelError(new Error('boom'), {
        isCancellationRequested: true,
        onCancellationRequested: () => ({ dispose() {} }),
      }) instanceof CancelledError,
    );
    assert.ok(toModelError(named('Canceled', 'Canceled')) instanceof CancelledError);
  });

  it('escapes provider text so it cannot open a code block, a link or emphasis', () => {
    const message = describeModelFailure(
      new LanguageModelFailure('unknown', 'The model request failed: bad ```json [x](y) *z*'),
    );
    assert.ok(!message.includes('```'), message);
    assert.match(message, /\(Details: bad \\`\\`\\`json \\\[x\\\]\(y\) \\\*z\\\*\.\)$/);
    assert.equal(markdownSafe('a\n\nb'), 'a b');
  });
});

describe('describeTurnStop: the same sentences for the council and /plan', () => {
  it('Stop is not a failure: it says what is kept and which button continues', () => {
    const stop = describeTurnStop(new CancelledError(), kept);
    assert.deepEqual(stop, {
      kind: 'cancelled',
      message:
        'Stopped. The session is saved. Press **Try again** to continue where it stopped; nothing done so far is repeated.',
    });
    assert.equal(describeTurnStop(new Error('anything'), { kept: 'x.', button: 'Resume' }, true).kind, 'cancelled');
  });

  it('a model failure says what happened and what to do, with the detail kept for the log', () => {
    const stop = describeTurnStop(
      new LanguageModelFailure('malformedReply', 'select_personas: personaIds[1]: duplicate'),
      kept,
    );
    assert.equal(stop.kind, 'failed');
    assert.match(stop.message, /wrong format.*The session is saved\.$/);
    assert.ok(!stop.message.includes('personaIds'), 'validator detail stays out of the chat');
    assert.match(stop.kind === 'failed' ? stop.detail : '', /personaIds\[1\]/);
  });

  it('an internal problem (e.g. a refused step) never shows its rule text in chat', () => {
    const stop = describeTurnStop(
      new CouncilStepRejected('debating', 'changeReason is only given when the position changed.'),
      kept,
    );
    assert.equal(stop.kind, 'failed');
    assert.ok(!stop.message.includes('changeReason'));
    assert.match(stop.message, /Council output channel.*Press \*\*Try again\*\*/);
    assert.match(stop.kind === 'failed' ? stop.detail : '', /changeReason/);
  });
});

describe('a failure the user can fix', () => {
  it('is shown as it is, with what is kept, never as an internal problem', async () => {
    const rig = await councilRig({
      responder: councilResponder({}, step =>
        step === 'contribute_to_debate'
          ? { kind: 'error', error: new LanguageModelFailure('unknown', 'down') }
          : undefined,
      ),
    });
    const log = newCouncilSession({ request: 'q', userId: 'u', limits: {}, skipClarification: true }, rig.deps);
    await assert.rejects(runCouncilTurn(log, { kind: 'retry' }, rig.deps), LanguageModelFailure);
    assert.equal(log.state, 'debating');
    // The council's Security Expert file disappears before Try again.
    const without = { ...rig.deps, personas: rig.deps.personas.filter(p => p.id !== 'security-expert') };
    const error = await runCouncilTurn(SessionLog.restore(log.stored), { kind: 'retry' }, without).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ActionableError, String(error));
    const stop = describeTurnStop(error, { kept: 'The session is saved.', button: 'Try again' });
    assert.equal(stop.kind, 'failed');
    assert.match(
      stop.message,
      /^The persona "Security Expert" of this session is no longer available .*Restore it, or start a new session with \/new\. The session is saved\.$/,
    );
  });
});
