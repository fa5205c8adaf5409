import type { Clock } from '../../clock';
import type { AgentType } from '../schemas/agentType';
import { formatContextId } from '../schemas/contextId';

/** Hands out context ids `wf-{uuid}/{agentType}/{sequence}/{timestamp}` with one sequence per run (persisted in the run state). */
export class ContextIdIssuer {
  constructor(
    private readonly workflowRunId: string,
    private readonly clock: Clock,
    /** The sequence number the next id will get (saved so a resumed run never reuses one). */
    public nextSequence = 1,
  ) {}

  issue(agentType: AgentType): string {
    return formatContextId({
      workflowRunId: this.workflowRunId,
      agentType,
      sequenceNumber: this.nextSequence++,
      timestamp: this.clock.now(),
    });
  }
}
