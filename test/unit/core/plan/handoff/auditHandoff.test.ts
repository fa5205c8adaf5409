import assert from 'node:assert/strict';
import { auditHandoff } from '../../../../../src/core/plan/handoff/auditHandoff';
import { context, envelope, makeRegistry, validPayload } from './fixtures';

const codes = (errors: readonly { error_code: string }[]) => errors.map(error => error.error_code);

describe('auditHandoff', () => {
  it('finds nothing in a valid handoff and returns the parsed payload with defaults applied', () => {
    const payload = validPayload();
    const { files: _files, ...withoutFiles } = payload.tickets[1]!;
    const audit = auditHandoff(
      envelope({ payload: { ...payload, tickets: [payload.tickets[0], withoutFiles] } }),
      makeRegistry(),
      context(),
    );
    assert.deepEqual(audit.findings, []);
    assert.deepEqual(audit.envelope?.payload, payload);
  });

  it('reports envelope schema errors with their paths and reads no further', () => {
    const { sessionId: _sessionId, ...withoutSession } = envelope({
      payloadSchema: 'Ticket Batch',
      payload: { broken: true },
    });
    const audit = auditHandoff(withoutSession, makeRegistry(), context());
    assert.equal(audit.envelope, undefined);
    assert.deepEqual(
      audit.findings.map(error => [error.error_code, error.path]),
      [
        ['SCH-001', '$.sessionId'],
        ['SCH-003', '$.payloadSchema'],
      ],
    );
  });

  it('reports every payload schema issue at once', () => {
    const audit = auditHandoff(
      envelope({ payload: { tickets: [], confidence: -1, extra: 1 } }),
      makeRegistry(),
      context(),
    );
    assert.equal(audit.envelope, undefined);
    assert.deepEqual(codes(audit.findings).sort(), ['SCH-001', 'SCH-004', 'SCH-004', 'SCH-005']);
  });

  it('explains an unknown schema with the registered names', () => {
    const audit = auditHandoff(envelope({ payloadSchema: 'tickets@1.0.0' }), makeRegistry(), context());
    assert.match(audit.findings[0]!.remediation, /ticket-batch/);
  });

  describe('layers', () => {
    it('skips semantic rules when the payload does not match its schema', () => {
      const selfHandoff = { agentId: 'planning-orchestrator-1', agentType: 'planning-orchestrator' };
      const audit = auditHandoff(
        envelope({ target: selfHandoff, payload: { ...validPayload(), confidence: 'x' } }),
        makeRegistry(),
        context(),
      );
      assert.deepEqual(codes(audit.findings), ['SCH-002']);
    });

    it('records semantic and cross-reference findings together, warnings and errors alike', () => {
      const payload = { ...validPayload(), confidence: 0.1, upstreamContextId: 'wf-1/planning-collector/2' };
      const audit = auditHandoff(
        envelope({ payload, timestamp: '2027-01-01T00:00:00Z' }),
        makeRegistry(),
        context({ known: { contextIds: new Set(['wf-1/planning-collector/1']), files: new Set() } }),
      );
      assert.ok(audit.envelope, 'a payload that matches its schema is accepted whatever the later layers find');
      assert.deepEqual(codes(audit.findings), ['SEM-003', 'SEM-005', 'REF-002', 'REF-001']);
      assert.match(audit.findings[2]!.remediation, /Did you mean "wf-1\/planning-collector\/1"/);
      assert.deepEqual(
        audit.findings.map(finding => finding.severity),
        ['error', 'warning', 'error', 'warning'],
      );
    });
  });

  describe('semantic envelope rules', () => {
    it('finds nothing at the depth limit and SEM-002 above it', () => {
      const at = envelope({ trace: { traceId: 't', depth: 3, parentHandoffId: 'handoff-1' } });
      assert.deepEqual(auditHandoff(at, makeRegistry(), context({ maxDepth: 3 })).findings, []);
      const above = envelope({ trace: { traceId: 't', depth: 4, parentHandoffId: 'handoff-1' } });
      assert.deepEqual(codes(auditHandoff(above, makeRegistry(), context({ maxDepth: 3 })).findings), ['SEM-002']);
    });

    it('tolerates small clock skew but not a timestamp beyond it', () => {
      const skewed = (timestamp: string) =>
        codes(auditHandoff(envelope({ timestamp }), makeRegistry(), context()).findings);
      assert.deepEqual(skewed('2026-01-10T14:30:04.000Z'), []);
      assert.deepEqual(skewed('2026-01-10T14:30:06.000Z'), ['SEM-003']);
    });

    it('finds a root handoff with a parent and a handoff that is its own parent', () => {
      for (const trace of [
        { traceId: 't', depth: 0, parentHandoffId: 'handoff-1' },
        { traceId: 't', depth: 1, parentHandoffId: 'handoff-2' },
      ])
        assert.ok(codes(auditHandoff(envelope({ trace }), makeRegistry(), context()).findings).includes('SEM-004'));
    });
  });

  it('does not check reference kinds the context does not know about', () => {
    const payload = { ...validPayload(), upstreamContextId: 'anything' };
    const audit = auditHandoff(envelope({ payload }), makeRegistry(), { now: '2026-01-10T14:30:00.000Z' });
    assert.deepEqual(audit.findings, []);
  });
});
