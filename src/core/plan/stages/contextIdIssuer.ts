import type { Clock } from '../../clock';
import type { AgentType } from '../schemas/agentType';
import { formatContextId } from '../schemas/contextId';

/** Hands out context ids `wf-{uuid}/{agentType}/{sequence}/{timestamp}` with one sequence per run (persisted in the run state). */
export class ContextIdIssuer {
  private sequence: number;

  constructor(
    readonly workflowRunId: string,
    private readonly clock: Clock,
    nextSequence = 1,
  ) {
    this.sequence = nextSequence;
  }

  /** The sequence number the next id will get (saved so a resumed run never reuses one). */
  get nextSequence(): number {
    return this.sequence;
  }

  /** A new context id for a result of `agentType`. */
  issue(agentType: AgentType): string {
    const sequenceNumber = this.sequence++;
    return formatContextId({
      workflowRunId: this.workflowRunId,
      agentType,
      sequenceNumber,
      timestamp: this.clock.now(),
    });
  }
}
