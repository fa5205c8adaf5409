import assert from 'node:assert/strict';
import { validateHandoff } from '../../../../../src/core/pipeline/handoff/validateHandoff';
import { context, envelope, makeRegistry, validPayload } from './fixtures';

const codes = (errors: readonly { error_code: string }[]) => errors.map(error => error.error_code);

describe('validateHandoff', () => {
  it('accepts a valid handoff and returns the parsed payload with defaults applied', () => {
    const payload = validPayload();
    const { files: _files, ...withoutFiles } = payload.tickets[1]!;
    const verdict = validateHandoff(
      envelope({ payload: { ...payload, tickets: [payload.tickets[0], withoutFiles] } }),
      makeRegistry(),
      context(),
    );
    assert.ok(verdict.ok, JSON.stringify(verdict));
    assert.deepEqual(verdict.warnings, []);
    assert.deepEqual(verdict.envelope.payload, payload);
  });

  it('reports envelope schema errors with their paths and stops before the payload', () => {
    const { sessionId: _sessionId, ...withoutSession } = envelope({
      payloadSchema: 'Ticket Batch',
      payload: { broken: true },
    });
    const verdict = validateHandoff(withoutSession, makeRegistry(), context());
    assert.ok(!verdict.ok);
    assert.equal(verdict.failedLayer, 'schema');
    assert.deepEqual(
      verdict.errors.map(error => [error.error_code, error.path]),
      [
        ['SCH-001', '$.sessionId'],
        ['SCH-003', '$.payloadSchema'],
      ],
    );
  });

  it('reports every payload schema issue at once, so one repair can fix them all', () => {
    const verdict = validateHandoff(
      envelope({ payload: { tickets: [], confidence: -1, extra: 1 } }),
      makeRegistry(),
      context(),
    );
    assert.ok(!verdict.ok);
    assert.deepEqual(codes(verdict.errors).sort(), ['SCH-001', 'SCH-004', 'SCH-004', 'SCH-005']);
  });

  it('explains an unknown schema with the registered names', () => {
    const verdict = validateHandoff(envelope({ payloadSchema: 'tickets@1.0.0' }), makeRegistry(), context());
    assert.ok(!verdict.ok);
    assert.match(verdict.errors[0]!.remediation, /ticket-batch/);
  });

  describe('layers short-circuit', () => {
    it('skips semantic rules when the schema layer failed', () => {
      const selfHandoff = { agentId: 'planning-orchestrator-1', agentType: 'planning-orchestrator' };
      const verdict = validateHandoff(
        envelope({ target: selfHandoff, payload: { ...validPayload(), confidence: 'x' } }),
        makeRegistry(),
        context(),
      );
      assert.ok(!verdict.ok);
      assert.equal(verdict.failedLayer, 'schema');
      assert.deepEqual(codes(verdict.errors), ['SCH-002']);
    });

    it('skips cross-reference checks when a semantic rule failed', () => {
      const payload = { ...validPayload(), upstreamContextId: 'unknown-context' };
      const verdict = validateHandoff(
        envelope({ payload, timestamp: '2027-01-01T00:00:00Z' }),
        makeRegistry(),
        context(),
      );
      assert.ok(!verdict.ok);
      assert.equal(verdict.failedLayer, 'semantic');
      assert.deepEqual(codes(verdict.errors), ['SEM-003']);
    });

    it('lets warnings through to the next layer and into the accepted result', () => {
      const payload = { ...validPayload(), confidence: 0.1 };
      const verdict = validateHandoff(
        envelope({ payloadSchema: 'ticket-batch@2.2.0', payload }),
        makeRegistry(),
        context({ known: { files: new Set() } }),
      );
      assert.ok(verdict.ok);
      assert.deepEqual(codes(verdict.warnings), ['SCH-010', 'SEM-005', 'REF-001']);
    });

    it('fails in the reference layer with semantic warnings kept', () => {
      const payload = { ...validPayload(), confidence: 0.1, upstreamContextId: 'wf-1/planning-collector/2' };
      const verdict = validateHandoff(envelope({ payload }), makeRegistry(), context());
      assert.ok(!verdict.ok);
      assert.equal(verdict.failedLayer, 'reference');
      assert.deepEqual(codes(verdict.errors), ['SEM-005', 'REF-002']);
      assert.match(verdict.errors[1]!.remediation, /Did you mean "wf-1\/planning-collector\/1"/);
    });
  });

  describe('semantic envelope rules', () => {
    it('accepts a depth exactly at the limit and rejects one above it', () => {
      const at = envelope({ trace: { traceId: 't', depth: 3, parentHandoffId: 'handoff-1' } });
      assert.ok(validateHandoff(at, makeRegistry(), context({ maxDepth: 3 })).ok);
      const above = envelope({ trace: { traceId: 't', depth: 4, parentHandoffId: 'handoff-1' } });
      assert.ok(!validateHandoff(above, makeRegistry(), context({ maxDepth: 3 })).ok);
    });

    it('tolerates small clock skew but not a timestamp beyond it', () => {
      assert.ok(validateHandoff(envelope({ timestamp: '2026-01-10T14:30:04.000Z' }), makeRegistry(), context()).ok);
      assert.ok(!validateHandoff(envelope({ timestamp: '2026-01-10T14:30:06.000Z' }), makeRegistry(), context()).ok);
    });

    it('rejects a root handoff with a parent and a handoff that is its own parent', () => {
      const rootWithParent = validateHandoff(
        envelope({ trace: { traceId: 't', depth: 0, parentHandoffId: 'handoff-1' } }),
        makeRegistry(),
        context(),
      );
      const ownParent = validateHandoff(
        envelope({ trace: { traceId: 't', depth: 1, parentHandoffId: 'handoff-2' } }),
        makeRegistry(),
        context(),
      );
      for (const verdict of [rootWithParent, ownParent]) {
        assert.ok(!verdict.ok);
        assert.deepEqual(codes(verdict.errors), ['SEM-004']);
      }
    });
  });

  it('does not check reference kinds the context does not know about', () => {
    const payload = { ...validPayload(), upstreamContextId: 'anything' };
    const verdict = validateHandoff(envelope({ payload }), makeRegistry(), { now: '2026-01-10T14:30:00.000Z' });
    assert.ok(verdict.ok);
  });
});
