import { z } from 'zod';
import { requireUnique } from './common';
import { checkConsolidation, consolidationShape, requireCitedInputs, type CollectorVocabulary } from './consolidation';
import {
  CompletionStatus,
  DiscoveryCollectorContext,
  PlanningCollectorContext,
  TicketCollectorContext,
} from './curation';
import { checkTicketGraph } from './dependencyGraph';
import { codeMap, queryFindings, recommendation, type DiscoveryCollectorVocabulary } from './discoveryFindings';
import { planDiscoveryResultId, planningTicket, TicketDependency, type TicketVocabulary } from './planning';
import { collectorRecordStamp } from './recordStamp';

// Each collector's draft is built from one request's vocabulary (its inputs, agents and citable files); without one,
// it is the draft its published record is built on.

// ---- discovery ----

/** What a discovery collector model fills in. */
export function discoveryCollectorSchema(vocabulary?: DiscoveryCollectorVocabulary) {
  return z
    .object({
      ...consolidationShape('discovery', vocabulary),
      unifiedCodeMap: codeMap(vocabulary?.files),
      // The prompt says what these are for (actionable recommendations, answers to the generated queries).
      recommendations: z.array(recommendation(vocabulary)),
      queryFindings: z.array(queryFindings(vocabulary)),
    })
    .superRefine((value, ctx) => {
      checkConsolidation(value, ctx);
      requireUnique(ctx, value.recommendations, r => r.recommendationId, ['recommendations'], 'recommendationId');
      requireUnique(ctx, value.queryFindings, f => f.queryId, ['queryFindings'], 'queryId');
      requireCitedInputs(ctx, value.inputs, value.recommendations, 'recommendations', 'supportingDiscoveryIds');
    })
    .describe('The consolidation of all discovery reports.');
}
/** What a discovery collector model fills in. */
export type DiscoveryCollectorResultDraft = z.infer<ReturnType<typeof discoveryCollectorSchema>>;

/** The discovery collector's consolidated output (a ConsolidationTemplate). */
export const DiscoveryCollectorResult = discoveryCollectorSchema()
  .safeExtend({ ...collectorRecordStamp('discovery-collector'), discoveryCuration: DiscoveryCollectorContext })
  .describe('A discovery collector output.')
  .meta({ id: 'DiscoveryCollectorResult' });
export type DiscoveryCollectorResult = z.infer<typeof DiscoveryCollectorResult>;

// ---- planning ----

/** What a planning collector model fills in. */
export function planningCollectorSchema(vocabulary?: TicketVocabulary & CollectorVocabulary) {
  return z
    .object({
      ...consolidationShape('planning', vocabulary),
      finalizedTickets: z.array(planningTicket(vocabulary, true)).min(1).describe('ticketIds unique.'),
      dependencyGraph: z
        .array(TicketDependency)
        .describe(
          "Ordering edges between final tickets; each pair once, and no cycles with the tickets' dependencies.",
        ),
    })
    .superRefine((value, ctx) => {
      checkConsolidation(value, ctx);
      requireUnique(ctx, value.finalizedTickets, t => t.ticketId, ['finalizedTickets'], 'ticketId');
      checkTicketGraph(value.finalizedTickets, value.dependencyGraph, 'finalizedTickets', 'dependencyGraph', ctx);
    })
    .describe('The consolidation of all planning agents into final tickets.');
}
/** What a planning collector model fills in. */
export type PlanningCollectorResultDraft = z.infer<ReturnType<typeof planningCollectorSchema>>;

/** The planning collector's consolidated output with the ticket dependency graph. */
export const PlanningCollectorResult = planningCollectorSchema()
  .safeExtend({
    ...collectorRecordStamp('planning-collector'),
    discoveryResultId: planDiscoveryResultId,
    planningCuration: PlanningCollectorContext,
  })
  .describe('A planning collector output.')
  .meta({ id: 'PlanningCollectorResult' });
export type PlanningCollectorResult = z.infer<typeof PlanningCollectorResult>;

// ---- tickets ----

/** What a ticket collector model fills in. */
export function ticketCollectorSchema(vocabulary?: CollectorVocabulary) {
  return z
    .object({
      ...consolidationShape('tickets', vocabulary),
      completionStatus: CompletionStatus,
      followUps: z.array(z.string()).describe('For the user or a later run.'),
    })
    .superRefine(checkConsolidation)
    .describe('The consolidation of all ticket agents.');
}
/** What a ticket collector model fills in. */
export type TicketCollectorResultDraft = z.infer<ReturnType<typeof ticketCollectorSchema>>;

/** The ticket collector's consolidated output. */
export const TicketCollectorResult = ticketCollectorSchema()
  .safeExtend({ ...collectorRecordStamp('ticket-collector'), ticketCuration: TicketCollectorContext })
  .describe('A ticket collector output.')
  .meta({ id: 'TicketCollectorResult' });
export type TicketCollectorResult = z.infer<typeof TicketCollectorResult>;
