import { MAX_REPAIRS_PER_REPLY } from '../llm/repairBudget';
import type { PipelineProgressEvent } from '../plan/stages/progressEvents';

/** Each stage's name as shown in chat. */
export const STAGE_NAME = { discovery: 'Discovery', planning: 'Planning', tickets: 'Tickets' } as const;

/** The progress line a pipeline event shows in chat, or undefined for events not worth a line. */
export function progressMessage(event: PipelineProgressEvent): string | undefined {
  switch (event.kind) {
    case 'delegated':
      return `${STAGE_NAME[event.stage]}: ${event.agentIds.length} agent${event.agentIds.length === 1 ? '' : 's'} at work (${event.agentIds.join(', ')})`;
    case 'agent-started':
      return `${STAGE_NAME[event.stage]}: ${event.agentId} working${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}…`;
    case 'agent-finished':
      return `${STAGE_NAME[event.stage]}: ${event.agentId} ${event.ok ? 'done' : 'failed'}`;
    case 'collector-decided':
      return `${STAGE_NAME[event.stage]}: collector decided to ${event.decision.kind.replace('_', ' ')}`;
    case 'loop-detected':
      return `${STAGE_NAME[event.stage]}: ${event.agentId} is repeating itself; rebuilding its context`;
    case 'context-requested':
      return `${STAGE_NAME[event.stage]}: ${event.agentId} asked for its context to be rebuilt`;
    case 'context-manager':
      return `${STAGE_NAME[event.stage]}: context manager ${event.outcome === 'route' ? `rebuilt the context for the ${event.to}s` : 'needs your input'}`;
    case 'limit-reached':
      return `${STAGE_NAME[event.stage]}: ${event.message}`;
    case 'tool-schema-refused':
      return `${STAGE_NAME[event.stage]}: the model refused ${event.agentId}'s tool schema; asked for JSON in the reply instead (a request more, no repair)`;
    case 'reply-retried':
      return `${STAGE_NAME[event.stage]}: ${event.agentId}'s reply was not in the expected format; asking again (attempt ${event.attempt} of ${1 + MAX_REPAIRS_PER_REPLY}, a request more)`;
    case 'handoff-audited':
      return `${STAGE_NAME[event.stage]}: the audit of ${event.agentId}'s result found ${event.findings.length} problem${event.findings.length === 1 ? '' : 's'} (${event.findings
        .slice(0, 2)
        .map(finding => `${finding.code}: ${finding.message}${finding.remediation ? ` — ${finding.remediation}` : ''}`)
        .join(
          '; ',
        )})${event.findings.some(finding => finding.code.startsWith('SCH')) ? '' : '; the run goes on, the report lists them'}`;
  }
}
