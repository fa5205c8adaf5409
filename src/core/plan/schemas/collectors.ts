import { z } from 'zod';
import { addIssue, requireUnique, draftSchema } from './common';
import {
  checkConsolidation,
  consolidationContentShape,
  consolidationRecordShape,
  requireCitedInputs,
} from './consolidation';
import {
  CompletionStatus,
  DiscoveryCollectorContext,
  PlanningCollectorContext,
  TicketCollectorContext,
} from './curation';
import { checkTicketGraph } from './dependencyGraph';
import { CodeMap, QueryFindings, Recommendation } from './discoveryFindings';
import { planDiscoveryResultId, PlanningTicket, TicketDependency } from './planning';

type Content<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

/** A curated context must point back at the collector result that carries it. */
function checkCurationSource(
  curation: { readonly sourceResultId: string },
  resultId: string,
  field: string,
  ctx: z.RefinementCtx,
): void {
  if (curation.sourceResultId !== resultId) {
    addIssue(ctx, [field, 'sourceResultId'], `must be this result's id "${resultId}"`);
  }
}

// ---- discovery ----

const discoveryShape = {
  ...consolidationContentShape,
  unifiedCodeMap: CodeMap,
  recommendations: z.array(Recommendation).describe('Actionable recommendations for planning; ids unique.'),
  queryFindings: z.array(QueryFindings).describe('Findings per generated query; queryIds unique.'),
};

function checkDiscoveryCollector(value: Content<typeof discoveryShape>, ctx: z.RefinementCtx): void {
  checkConsolidation(value, 'discovery', ctx);
  requireUnique(ctx, value.recommendations, r => r.recommendationId, ['recommendations'], 'recommendationId');
  requireUnique(ctx, value.queryFindings, f => f.queryId, ['queryFindings'], 'queryId');
  requireCitedInputs(ctx, value.inputs, value.recommendations, 'recommendations', 'supportingDiscoveryIds');
}

/** What a discovery collector model fills in. */
export const DiscoveryCollectorResultDraft = draftSchema(
  discoveryShape,
  checkDiscoveryCollector,
  'The consolidation of all discovery reports.',
);
/** What a discovery collector model fills in. */
export type DiscoveryCollectorResultDraft = z.infer<typeof DiscoveryCollectorResultDraft>;

/** The discovery collector's consolidated output (a ConsolidationTemplate). */
export const DiscoveryCollectorResult = z
  .object({
    ...consolidationRecordShape('discovery-collector'),
    ...discoveryShape,
    discoveryCuration: DiscoveryCollectorContext,
  })
  .superRefine((value, ctx) => {
    checkDiscoveryCollector(value, ctx);
    checkCurationSource(value.discoveryCuration, value.resultId, 'discoveryCuration', ctx);
  })
  .describe('A discovery collector output.')
  .meta({ id: 'DiscoveryCollectorResult' });
/** The discovery collector's consolidated output. */
export type DiscoveryCollectorResult = z.infer<typeof DiscoveryCollectorResult>;

// ---- planning ----

const planningShape = {
  ...consolidationContentShape,
  finalizedTickets: z.array(PlanningTicket).min(1).describe('The final tickets; at least one, ticketIds unique.'),
  dependencyGraph: z.array(TicketDependency).describe('Ordering edges between final tickets; must be acyclic.'),
};

function checkPlanningCollector(value: Content<typeof planningShape>, ctx: z.RefinementCtx): void {
  checkConsolidation(value, 'planning', ctx);
  requireUnique(ctx, value.finalizedTickets, t => t.ticketId, ['finalizedTickets'], 'ticketId');
  checkTicketGraph(value.finalizedTickets, value.dependencyGraph, 'finalizedTickets', 'dependencyGraph', ctx);
}

/** What a planning collector model fills in. */
export const PlanningCollectorResultDraft = draftSchema(
  planningShape,
  checkPlanningCollector,
  'The consolidation of all planning agents into final tickets.',
);
/** What a planning collector model fills in. */
export type PlanningCollectorResultDraft = z.infer<typeof PlanningCollectorResultDraft>;

/** The planning collector's consolidated output with the ticket dependency graph. */
export const PlanningCollectorResult = z
  .object({
    ...consolidationRecordShape('planning-collector'),
    ...planningShape,
    discoveryResultId: planDiscoveryResultId,
    planningCuration: PlanningCollectorContext,
  })
  .superRefine((value, ctx) => {
    checkPlanningCollector(value, ctx);
    checkCurationSource(value.planningCuration, value.resultId, 'planningCuration', ctx);
    if (value.planningCuration.curation.discoveryResultId !== value.discoveryResultId) {
      addIssue(ctx, ['planningCuration', 'curation', 'discoveryResultId'], `must be "${value.discoveryResultId}"`);
    }
  })
  .describe('A planning collector output.')
  .meta({ id: 'PlanningCollectorResult' });
/** The planning collector's consolidated output. */
export type PlanningCollectorResult = z.infer<typeof PlanningCollectorResult>;

// ---- tickets ----

const ticketShape = {
  ...consolidationContentShape,
  completionStatus: CompletionStatus,
  followUps: z.array(z.string()).describe('Follow-up items for the user or a later run.'),
};

/** What a ticket collector model fills in. */
export const TicketCollectorResultDraft = draftSchema(
  ticketShape,
  (value, ctx) => checkConsolidation(value, 'tickets', ctx),
  'The consolidation of all ticket agents.',
);
/** What a ticket collector model fills in. */
export type TicketCollectorResultDraft = z.infer<typeof TicketCollectorResultDraft>;

/** The ticket collector's consolidated output. */
export const TicketCollectorResult = z
  .object({
    ...consolidationRecordShape('ticket-collector'),
    ...ticketShape,
    ticketCuration: TicketCollectorContext,
  })
  .superRefine((value, ctx) => {
    checkConsolidation(value, 'tickets', ctx);
    checkCurationSource(value.ticketCuration, value.resultId, 'ticketCuration', ctx);
  })
  .describe('A ticket collector output.')
  .meta({ id: 'TicketCollectorResult' });
/** The ticket collector's consolidated output. */
export type TicketCollectorResult = z.infer<typeof TicketCollectorResult>;
