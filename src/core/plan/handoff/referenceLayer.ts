import { closestMatch } from '../../closestMatch';
import type { ParsedPayload } from './contractRegistry';
import type { HandoffEnvelope } from './envelope';
import { ERROR_CATALOGUE, type ErrorCode } from './errorCatalogue';
import { finding } from './finding';
import type { ReferenceKind } from './payloadContract';
import type { HandoffValidationContext, KnownReferences } from './validationContext';
import type { ValidationError } from './validationError';

const BY_KIND: Readonly<
  Record<ReferenceKind, { readonly code: ErrorCode; readonly label: string; readonly known: keyof KnownReferences }>
> = {
  file: { code: 'REF-001', label: 'file', known: 'files' },
  context: { code: 'REF-002', label: 'upstream context id', known: 'contextIds' },
  ticket: { code: 'REF-003', label: 'ticket id', known: 'ticketIds' },
};

function remediation(code: ErrorCode, id: string, known: ReadonlySet<string>): string {
  const suggestion = closestMatch(id, known);
  const base = ERROR_CATALOGUE[code].remediation;
  return suggestion === undefined ? base : `${base} Did you mean "${suggestion}"?`;
}

/** Layer 3: every id the payload (and the trace) refers to exists in `context.known`. */
export function checkReferences(
  envelope: HandoffEnvelope,
  payload: ParsedPayload,
  context: HandoffValidationContext,
): ValidationError[] {
  const known = context.known ?? {};
  const findings: ValidationError[] = payload.references().flatMap(reference => {
    const rule = BY_KIND[reference.kind];
    const set = known[rule.known];
    if (!set || set.has(reference.id)) return [];
    return [
      finding(rule.code, {
        message: `Unknown ${rule.label}: ${reference.id}`,
        path: ['payload', ...reference.path],
        actual: reference.id,
        remediation: remediation(rule.code, reference.id, set),
      }),
    ];
  });
  const parent = envelope.trace.parentHandoffId;
  if (parent !== undefined && known.handoffIds && !known.handoffIds.has(parent)) {
    findings.push(
      finding('REF-004', {
        message: `Unknown parent handoff: ${parent}`,
        path: ['trace', 'parentHandoffId'],
        actual: parent,
        remediation: remediation('REF-004', parent, known.handoffIds),
      }),
    );
  }
  return findings;
}
