import { z } from 'zod';
import { DiscoveryCollectorResult } from '../../schemas/collectors';
import { DelegationTemplate } from '../../schemas/delegation';
import { DiscoveryReport } from '../../schemas/discovery';

/** A completed discovery stage as the run state keeps it (full results for the report; downstream sees only the curation). */
export const DiscoveryStageRecord = z.object({
  stage: z.literal('discovery'),
  delegation: DelegationTemplate,
  reports: z.array(DiscoveryReport),
  result: DiscoveryCollectorResult,
  /** Id of the accepted collector -> planning handoff (the parent of the next stage's handoffs). */
  handoffId: z.string().min(1),
  rounds: z.number().int().min(1),
  agentsSpawned: z.number().int().min(0),
});
/** A completed discovery stage. */
export type DiscoveryStageRecord = z.infer<typeof DiscoveryStageRecord>;
