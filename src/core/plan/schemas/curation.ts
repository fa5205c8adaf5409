import { z } from 'zod';
import type { AgentType } from './agentType';
import { nonBlank } from './common';
import { consolidationSummary } from './consolidation';
import { contextIdOf } from './contextId';
import { DiscoveryReport } from './discovery';
import { codeMap, queryFindings, recommendation } from './discoveryFindings';
import { planDiscoveryResultId, PlanningAgentResult, planningTicket, TicketDependency } from './planning';
import { TicketAgentResult } from './tickets';

// A curated context is cut by Council from a collector's accepted draft: these schemas describe it (for the published
// records and the types); the rules were checked on the draft.

/** Fields every curated context shares (the spec's Curation mixin), for a given collector. */
function curationShape(collector: AgentType) {
  return {
    contextId: contextIdOf(collector).describe('Id of this curated context.'),
    sourceResultId: contextIdOf(collector).describe('Id of the collector result it was curated from.'),
    selectionRationale: nonBlank('Why these items were selected for downstream prompts.'),
  };
}

/** Curated context derived from a DiscoveryCollectorResult. */
export const DiscoveryCollectorContext = z
  .object({
    ...curationShape('discovery-collector'),
    curation: z
      .object({
        discoveryReports: z.array(DiscoveryReport).describe('Curated discovery agent reports.'),
        unifiedCodeMap: codeMap(),
        recommendations: z.array(recommendation()).describe('Curated recommendations.'),
        queryFindings: z.array(queryFindings()).describe('Curated query findings.'),
        consolidationSummary: consolidationSummary('discovery'),
      })
      .describe('Curated discovery content.'),
  })
  .describe('Curated discovery context for downstream agents.')
  .meta({ id: 'DiscoveryCollectorContext' });
/** Curated context derived from a DiscoveryCollectorResult. */
export type DiscoveryCollectorContext = z.infer<typeof DiscoveryCollectorContext>;

/** Curated context derived from a PlanningCollectorResult. */
export const PlanningCollectorContext = z
  .object({
    ...curationShape('planning-collector'),
    curation: z
      .object({
        planningAgentResults: z.array(PlanningAgentResult).describe('Curated planning agent outputs.'),
        finalizedTickets: z.array(planningTicket(undefined, true)).describe('Curated finalized tickets.'),
        dependencyGraph: z.array(TicketDependency).describe('Curated dependency edges.'),
        discoveryResultId: planDiscoveryResultId,
        consolidationSummary: consolidationSummary('planning'),
      })
      .describe('Curated planning content.'),
  })
  .describe('Curated planning context for downstream agents.')
  .meta({ id: 'PlanningCollectorContext' });
/** Curated context derived from a PlanningCollectorResult. */
export type PlanningCollectorContext = z.infer<typeof PlanningCollectorContext>;

/** How complete the ticket stage is. */
export const CompletionStatus = z
  .enum(['complete', 'partial', 'blocked'])
  .describe('complete: every ticket has a verified proposal; partial: some do; blocked: none could be done.');

/** Curated context derived from a TicketCollectorResult. */
export const TicketCollectorContext = z
  .object({
    ...curationShape('ticket-collector'),
    curation: z
      .object({
        ticketAgentResults: z.array(TicketAgentResult).describe('Curated ticket agent outputs.'),
        completionStatus: CompletionStatus,
        followUps: z.array(z.string()).describe('Follow-up items.'),
        consolidationSummary: consolidationSummary('tickets'),
      })
      .describe('Curated ticket content.'),
  })
  .describe('Curated ticket context for downstream agents.')
  .meta({ id: 'TicketCollectorContext' });
/** Curated context derived from a TicketCollectorResult. */
export type TicketCollectorContext = z.infer<typeof TicketCollectorContext>;
