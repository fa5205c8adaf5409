import { STAGE_TYPES } from '../plan/pipelineBoard';
import type { WorkflowProgress } from '../workflow/engine/workflowProgress';

/** Agent types that report their own agents' work (a line for the stage itself would only repeat its phase's). */
const SELF_REPORTING = new Set<string>(Object.values(STAGE_TYPES));

/** The chat's progress line for a workflow event, or undefined for events not worth a line. */
export function workflowProgressMessage(event: WorkflowProgress): string | undefined {
  switch (event.kind) {
    case 'phase-started':
      return `${event.name}: starting${event.iteration > 1 ? ` (pass ${event.iteration})` : ''}…`;
    case 'agent-started':
      return SELF_REPORTING.has(event.type) ? undefined : `${event.phase}: ${event.type} working…`;
    case 'agent-finished':
      return SELF_REPORTING.has(event.type) ? undefined : `${event.phase}: ${event.type} done`;
    case 'gap-check':
      return `${event.phase}: gap check ${event.iteration}: ${event.status === 'complete' ? 'complete' : `${event.gaps.length} gap${event.gaps.length === 1 ? '' : 's'}`}`;
    case 'skill':
      return event.ran ? `${event.phase}: skill ${event.name}` : undefined;
    case 'route-back':
      return `${event.from} sent the run back to ${event.to}`;
    case 'route-back-refused':
      return `${event.from} asked to send the run back to ${event.to}; refused (${event.reason}), the run goes on`;
    case 'phase-completed':
      return `${event.name}: complete`;
  }
}
