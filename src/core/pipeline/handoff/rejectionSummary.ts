import type { HandoffParty } from './envelope';
import type { ValidationLayer } from './validateHandoff';
import type { ValidationError } from './validationError';

/** How many errors a summary lists; the rest are counted, and all stay on the error object. */
const MAX_LISTED = 5;

const LAYER_LABEL: Readonly<Record<ValidationLayer, string>> = {
  schema: 'its structure did not match the schema',
  semantic: 'it broke a handoff or business rule',
  reference: 'it referred to things that do not exist',
};

function line(error: ValidationError): string {
  const expected =
    error.expected === undefined
      ? ''
      : ` (expected ${error.expected}${error.actual === undefined ? '' : `, got ${error.actual}`})`;
  return `- ${error.error_code} at ${error.path}: ${error.message}${expected}. Fix: ${error.remediation}`;
}

/** A user-facing account of a rejected handoff: what failed, where, and what to do. */
export function summarizeRejection(
  source: HandoffParty,
  target: HandoffParty,
  attempts: number,
  failedLayer: ValidationLayer,
  errors: readonly ValidationError[],
): string {
  const blocking = errors.filter(error => error.severity === 'error');
  const listed = blocking.slice(0, MAX_LISTED).map(line);
  if (blocking.length > MAX_LISTED) listed.push(`- …and ${blocking.length - MAX_LISTED} more.`);
  return [
    `The handoff from ${source.agentType} (${source.agentId}) to ${target.agentType} (${target.agentId}) was rejected after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${LAYER_LABEL[failedLayer]}.`,
    ...listed,
    'Nothing is lost: the rejected output and these errors are kept with the run. Retry to resume from this step, or refine your request if the same field keeps failing.',
  ].join('\n');
}
