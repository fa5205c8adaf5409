import type { Clock } from '../../clock';
import type { AgentType } from '../schemas/agentType';
import { formatContextId } from '../schemas/contextId';

/** Hands out context ids `wf-{uuid}/{agentType}/{sequence}/{timestamp}` with one sequence per run (persisted in the run state). */
export class ContextIdIssuer {
  constructor(
    private readonly workflowRunId: string,
    private readonly clock: Clock,
    /** The sequence number the next id will get (saved so a resumed run never reuses one). */
    private next = 1,
  ) {}

  get nextSequence(): number {
    return this.next;
  }

  issue(agentType: AgentType): string {
    return formatContextId({
      workflowRunId: this.workflowRunId,
      agentType,
      sequenceNumber: this.next++,
      timestamp: this.clock.now(),
    });
  }
}
