import assert from 'node:assert/strict';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../../../src/core/plan/handoff/errorCatalogue';

const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as readonly ErrorCode[];
import { auditHandoff } from '../../../../../src/core/plan/handoff/auditHandoff';
import type { HandoffValidationContext } from '../../../../../src/core/plan/handoff/validationContext';
import { ERROR_CODE_PATTERN } from '../../../../../src/core/plan/handoff/validationError';
import { context, envelope, makeRegistry, validPayload } from './fixtures';

interface Case {
  readonly envelope: Record<string, unknown>;
  readonly context?: HandoffValidationContext;
  readonly path: string;
}

const withTicket = (ticket: Record<string, unknown>) => ({ ...validPayload(), tickets: [ticket] });

/** One concrete failing handoff per catalogued code, with the path the finding must point at. */
const CASES: Record<ErrorCode, Case> = {
  'SCH-001': { envelope: envelope({ payload: withTicket({ ticketId: 'T-1' }) }), path: '$.payload.tickets[0].title' },
  'SCH-002': {
    envelope: envelope({ payload: { ...validPayload(), confidence: 'high' } }),
    path: '$.payload.confidence',
  },
  'SCH-003': {
    envelope: envelope({ payload: withTicket({ ticketId: 'ticket-1', title: 'x' }) }),
    path: '$.payload.tickets[0].ticketId',
  },
  'SCH-004': { envelope: envelope({ payload: { ...validPayload(), confidence: 1.5 } }), path: '$.payload.confidence' },
  'SCH-005': { envelope: envelope({ payload: { ...validPayload(), mood: 'great' } }), path: '$.payload.mood' },
  'SCH-007': { envelope: envelope({ payloadSchema: 'review-verdict@1.0.0' }), path: '$.payloadSchema' },
  'SEM-001': {
    envelope: envelope({ target: { agentId: 'planning-orchestrator-1', agentType: 'planning-orchestrator' } }),
    path: '$.target.agentId',
  },
  'SEM-002': {
    envelope: envelope({ trace: { traceId: 't', depth: 7, parentHandoffId: 'handoff-1' } }),
    path: '$.trace.depth',
  },
  'SEM-003': { envelope: envelope({ timestamp: '2026-01-10T14:31:00.000Z' }), path: '$.timestamp' },
  'SEM-004': { envelope: envelope({ trace: { traceId: 't', depth: 2 } }), path: '$.trace.parentHandoffId' },
  'SEM-005': {
    envelope: envelope({
      payload: { ...validPayload(), tickets: [validPayload().tickets[0], validPayload().tickets[0]] },
    }),
    path: '$.payload.tickets[1].ticketId',
  },
  'REF-001': {
    envelope: envelope(),
    context: context({ known: { files: new Set() } }),
    path: '$.payload.tickets[0].files[0]',
  },
  'REF-002': {
    envelope: envelope({ payload: { ...validPayload(), upstreamContextId: 'wf-9/nope/1' } }),
    path: '$.payload.upstreamContextId',
  },
  'REF-003': {
    envelope: envelope(),
    context: context({ known: { ticketIds: new Set(['T-2']) } }),
    path: '$.payload.tickets[1].dependsOn[0]',
  },
  'REF-004': {
    envelope: envelope({ trace: { traceId: 't', depth: 1, parentHandoffId: 'handoff-0' } }),
    path: '$.trace.parentHandoffId',
  },
};

describe('handoff error catalogue', () => {
  for (const code of ERROR_CODES) {
    it(`${code} is produced by a concrete failing handoff (${ERROR_CATALOGUE[code].meaning})`, () => {
      const testCase = CASES[code];
      const audit = auditHandoff(testCase.envelope, makeRegistry(), testCase.context ?? context());
      const hit = audit.findings.find(error => error.error_code === code);
      assert.ok(hit, `expected ${code}, got ${JSON.stringify(audit.findings)}`);
      assert.equal(hit.path, testCase.path);
      // Only a payload its contract rejects leaves the audit without an envelope; every other finding is recorded.
      assert.equal(audit.envelope === undefined, code.startsWith('SCH'));
      assert.ok(hit.remediation.length > 0);
    });
  }

  it('gives every code a well-formed id whose prefix matches its layer', () => {
    const prefix = { schema: 'SCH', semantic: 'SEM', reference: 'REF' } as const;
    for (const code of ERROR_CODES) {
      assert.match(code, ERROR_CODE_PATTERN);
      assert.equal(code.slice(0, 3), prefix[ERROR_CATALOGUE[code].layer]);
    }
  });
});
