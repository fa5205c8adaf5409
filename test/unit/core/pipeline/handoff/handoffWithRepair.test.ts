import { RepairBudget } from '../../../../../src/core/llm/repairBudget';
import assert from 'node:assert/strict';
import type { Clock } from '../../../../../src/core/clock';
import { CancelledError, type CancellationSignal } from '../../../../../src/core/llm/languageModel';
import {
  HandoffRejected,
  handoffWithRepair,
  type HandoffDraft,
} from '../../../../../src/core/pipeline/handoff/handoffWithRepair';
import type { ValidationError } from '../../../../../src/core/pipeline/handoff/validationError';
import { context, makeRegistry, NOW, validPayload } from './fixtures';

const clock: Clock = { now: () => NOW };

const draft: HandoffDraft = {
  sessionId: 'session-1',
  handoffId: 'handoff-2',
  source: { agentId: 'planning-collector-1', agentType: 'planning-collector' },
  target: { agentId: 'ticket-orchestrator-1', agentType: 'ticket-orchestrator' },
  payloadSchema: 'ticket-batch@2.1.0',
  trace: { traceId: 'trace-1', depth: 1, parentHandoffId: 'handoff-1' },
};

/** A producer that plays back payloads and records the feedback it was given. */
function producer(payloads: readonly unknown[]) {
  const feedback: (readonly ValidationError[] | undefined)[] = [];
  return {
    feedback,
    produce: async (errors?: readonly ValidationError[]) => {
      feedback.push(errors);
      return payloads[Math.min(feedback.length - 1, payloads.length - 1)];
    },
  };
}

const { known } = context();
const badPayload = { ...validPayload(), confidence: 'sure' };

describe('handoffWithRepair', () => {
  it('accepts a valid first payload without asking for repairs', async () => {
    const agent = producer([validPayload()]);
    const accepted = await handoffWithRepair({
      draft,
      produce: agent.produce,
      maxRepairs: 2,
      registry: makeRegistry(),
      clock,
      context: { known },
    });
    assert.equal(accepted.attempts, 1);
    assert.deepEqual(agent.feedback, [undefined]);
    assert.equal(accepted.envelope.handoffId, 'handoff-2');
    assert.equal(accepted.envelope.timestamp, NOW);
    assert.deepEqual(accepted.envelope.payload, validPayload());
  });

  it('sends the validation errors back to the producer and accepts its repair', async () => {
    const agent = producer([badPayload, validPayload()]);
    const accepted = await handoffWithRepair({
      draft,
      produce: agent.produce,
      maxRepairs: 2,
      registry: makeRegistry(),
      clock,
      context: { known },
    });
    assert.equal(accepted.attempts, 2);
    assert.equal(agent.feedback.length, 2);
    assert.deepEqual(
      agent.feedback[1]?.map(error => [error.error_code, error.path]),
      [['SCH-002', '$.payload.confidence']],
    );
  });

  it('takes its repairs from the reply’s one budget: repairs the schema check spent are not spent again', async () => {
    // The producer's own schema check already used one of the reply's two repairs.
    const repairs = new RepairBudget(2);
    repairs.take();
    const agent = producer([badPayload]);
    await assert.rejects(
      handoffWithRepair({
        draft,
        produce: agent.produce,
        maxRepairs: 2,
        repairs,
        registry: makeRegistry(),
        clock,
        context: { known },
      }),
      HandoffRejected,
    );
    assert.equal(agent.feedback.length, 2, 'one attempt plus the one repair left: 3 requests for the reply in all');
    assert.equal(repairs.remaining, 0);
  });

  it('throws HandoffRejected after the repair budget, keeping every attempt and a clear summary', async () => {
    const agent = producer([badPayload]);
    const rejection = await handoffWithRepair({
      draft,
      produce: agent.produce,
      maxRepairs: 2,
      registry: makeRegistry(),
      clock,
      context: { known },
    }).then(
      () => assert.fail('expected a rejection'),
      (error: unknown) => error,
    );
    assert.ok(rejection instanceof HandoffRejected);
    assert.equal(agent.feedback.length, 3, 'one attempt plus two repairs');
    assert.equal(rejection.attempts.length, 3);
    assert.deepEqual(rejection.payload, badPayload);
    assert.deepEqual(
      rejection.errors.map(error => error.error_code),
      ['SCH-002'],
    );
    assert.equal(rejection.attempts[0]!.failedLayer, 'schema');
    assert.equal(rejection.message, rejection.summary);
    assert.match(
      rejection.summary,
      /planning-collector \(planning-collector-1\) to ticket-orchestrator .* rejected after 3 attempts/,
    );
    assert.match(rejection.summary, /SCH-002 at \$\.payload\.confidence: .*expected number, got "sure"/);
    assert.match(rejection.summary, /Fix: Correct the field type\./);
    assert.match(rejection.summary, /Retry to resume/);
  });

  it('lists at most five errors in the summary and counts the rest', async () => {
    const manyBad = {
      ...validPayload(),
      tickets: Array.from({ length: 7 }, (_, i) => ({ ticketId: `bad-${i}`, title: 't' })),
    };
    const rejection = await handoffWithRepair({
      draft,
      produce: async () => manyBad,
      maxRepairs: 0,
      registry: makeRegistry(),
      clock,
    }).catch((error: unknown) => error);
    assert.ok(rejection instanceof HandoffRejected);
    assert.equal(rejection.errors.length, 7);
    assert.equal(rejection.summary.match(/^- SCH-003/gm)?.length, 5);
    assert.match(rejection.summary, /…and 2 more\./);
    assert.match(rejection.summary, /after 1 attempt:/);
  });

  it('rejects on reference errors the producer cannot fix', async () => {
    const payload = { ...validPayload(), upstreamContextId: 'made-up' };
    const rejection = await handoffWithRepair({
      draft,
      produce: async () => payload,
      maxRepairs: 1,
      registry: makeRegistry(),
      clock,
      context: { known },
    }).catch((error: unknown) => error);
    assert.ok(rejection instanceof HandoffRejected);
    assert.equal(rejection.attempts[1]!.failedLayer, 'reference');
    assert.match(rejection.summary, /referred to things that do not exist/);
  });

  it('stops before producing when cancelled', async () => {
    const cancelled: CancellationSignal = {
      isCancellationRequested: true,
      onCancellationRequested: () => ({ dispose() {} }),
    };
    const agent = producer([validPayload()]);
    await assert.rejects(
      handoffWithRepair({
        draft,
        produce: agent.produce,
        maxRepairs: 2,
        registry: makeRegistry(),
        clock,
        token: cancelled,
      }),
      CancelledError,
    );
    assert.equal(agent.feedback.length, 0);
  });
});
