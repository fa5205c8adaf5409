import { z } from 'zod';
import { nonBlank } from './common';
import { consolidationSummary } from './consolidation';
import { contextIdOf } from './contextId';
import { DiscoveryReport } from './discovery';
import { codeMap, queryFindings, recommendation } from './discoveryFindings';
import { planDiscoveryResultId, PlanningAgentResult, planningTicket, TicketDependency } from './planning';
import { TicketAgentResult } from './tickets';

// A curated context is cut by Council from a collector's accepted draft: these schemas describe it (for the published
// records and the types); the rules were checked on the draft.

/**
 * A curated context of `collector`: the fields every one shares (the spec's Curation mixin) and its `curation` content,
 * described by the collector's stage.
 */
function curatedContext<Curation extends z.ZodRawShape>(
  collector: 'discovery-collector' | 'planning-collector' | 'ticket-collector',
  id: string,
  curation: Curation,
) {
  const stage = collector.replace('-collector', '');
  return z
    .object({
      contextId: contextIdOf(collector).describe('Id of this curated context.'),
      sourceResultId: contextIdOf(collector).describe('Id of the collector result it was curated from.'),
      selectionRationale: nonBlank('Why these items were selected for downstream prompts.'),
      curation: z.object(curation).describe(`Curated ${stage} content.`),
    })
    .describe(`Curated ${stage} context for downstream agents.`)
    .meta({ id });
}

/** Curated context derived from a DiscoveryCollectorResult. */
export const DiscoveryCollectorContext = curatedContext('discovery-collector', 'DiscoveryCollectorContext', {
  discoveryReports: z.array(DiscoveryReport).describe('Curated discovery agent reports.'),
  unifiedCodeMap: codeMap(),
  recommendations: z.array(recommendation()).describe('Curated recommendations.'),
  queryFindings: z.array(queryFindings()).describe('Curated query findings.'),
  consolidationSummary: consolidationSummary('discovery'),
});
export type DiscoveryCollectorContext = z.infer<typeof DiscoveryCollectorContext>;

/** Curated context derived from a PlanningCollectorResult. */
export const PlanningCollectorContext = curatedContext('planning-collector', 'PlanningCollectorContext', {
  planningAgentResults: z.array(PlanningAgentResult).describe('Curated planning agent outputs.'),
  finalizedTickets: z.array(planningTicket(undefined, true)).describe('Curated finalized tickets.'),
  dependencyGraph: z.array(TicketDependency).describe('Curated dependency edges.'),
  discoveryResultId: planDiscoveryResultId,
  consolidationSummary: consolidationSummary('planning'),
});
export type PlanningCollectorContext = z.infer<typeof PlanningCollectorContext>;

/** How complete the ticket stage is. */
export const CompletionStatus = z
  .enum(['complete', 'partial', 'blocked'])
  .describe('complete: every ticket has a verified proposal; partial: some do; blocked: none could be done.');

/** Curated context derived from a TicketCollectorResult. */
export const TicketCollectorContext = curatedContext('ticket-collector', 'TicketCollectorContext', {
  ticketAgentResults: z.array(TicketAgentResult).describe('Curated ticket agent outputs.'),
  completionStatus: CompletionStatus,
  followUps: z.array(z.string()).describe('Follow-up items.'),
  consolidationSummary: consolidationSummary('tickets'),
});
export type TicketCollectorContext = z.infer<typeof TicketCollectorContext>;
