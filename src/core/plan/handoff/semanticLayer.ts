import type { ParsedPayload } from './contractRegistry';
import type { HandoffEnvelope } from './envelope';
import { finding } from './finding';
import {
  DEFAULT_MAX_CLOCK_SKEW_MS,
  DEFAULT_MAX_HANDOFF_DEPTH,
  type HandoffValidationContext,
} from './validationContext';
import type { ValidationError } from './validationError';

function envelopeRules(envelope: HandoffEnvelope, context: HandoffValidationContext): ValidationError[] {
  const findings: ValidationError[] = [];
  const { trace } = envelope;
  if (envelope.source.agentId === envelope.target.agentId) {
    findings.push(
      finding('SEM-001', {
        message: `Agent ${envelope.source.agentId} hands off to itself`,
        path: ['target', 'agentId'],
        expected: `an agent other than ${envelope.source.agentId}`,
        actual: envelope.target.agentId,
      }),
    );
  }
  const maxDepth = context.maxDepth ?? DEFAULT_MAX_HANDOFF_DEPTH;
  if (trace.depth > maxDepth) {
    findings.push(
      finding('SEM-002', {
        message: `Handoff depth ${trace.depth} exceeds the limit of ${maxDepth}`,
        path: ['trace', 'depth'],
        expected: `<= ${maxDepth}`,
        actual: String(trace.depth),
      }),
    );
  }
  const skew = context.maxClockSkewMs ?? DEFAULT_MAX_CLOCK_SKEW_MS;
  if (Date.parse(envelope.timestamp) > Date.parse(context.now) + skew) {
    findings.push(
      finding('SEM-003', {
        message: 'Handoff timestamp is in the future',
        path: ['timestamp'],
        expected: `<= ${context.now}`,
        actual: envelope.timestamp,
      }),
    );
  }
  const parent = trace.parentHandoffId;
  const traceProblem =
    trace.depth > 0 && parent === undefined
      ? `depth ${trace.depth} needs a parent handoff`
      : trace.depth === 0 && parent !== undefined
        ? 'a root handoff (depth 0) cannot have a parent'
        : parent === envelope.handoffId
          ? 'a handoff cannot be its own parent'
          : undefined;
  if (traceProblem) {
    findings.push(
      finding('SEM-004', {
        message: `Inconsistent trace: ${traceProblem}`,
        path: ['trace', 'parentHandoffId'],
        actual: parent ?? 'absent',
      }),
    );
  }
  return findings;
}

/** Layer 2: rules about the envelope as a whole plus the payload contract's own business rules. */
export function checkSemantics(
  envelope: HandoffEnvelope,
  payload: ParsedPayload,
  context: HandoffValidationContext,
): ValidationError[] {
  const payloadFindings = payload.semanticIssues().map(issue =>
    finding('SEM-005', {
      message: issue.message,
      path: ['payload', ...issue.path],
      ...(issue.expected === undefined ? {} : { expected: issue.expected }),
      ...(issue.actual === undefined ? {} : { actual: issue.actual }),
      ...(issue.remediation === undefined ? {} : { remediation: issue.remediation }),
      ...(issue.severity === undefined ? {} : { severity: issue.severity }),
    }),
  );
  return [...envelopeRules(envelope, context), ...payloadFindings];
}
