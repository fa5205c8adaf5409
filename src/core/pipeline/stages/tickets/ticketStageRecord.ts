import { z } from 'zod';
import { TicketCollectorResult } from '../../schemas/collectors';
import { DelegationTemplate } from '../../schemas/delegation';
import { TicketAgentResult } from '../../schemas/tickets';

/** A completed ticket stage as the run state keeps it. */
export const TicketStageRecord = z.object({
  stage: z.literal('tickets'),
  delegation: DelegationTemplate,
  agentResults: z.array(TicketAgentResult),
  result: TicketCollectorResult,
  handoffId: z.string().min(1),
  rounds: z.number().int().min(1),
  agentsSpawned: z.number().int().min(0),
});
/** A completed ticket stage. */
export type TicketStageRecord = z.infer<typeof TicketStageRecord>;
