import { z } from 'zod';
import type { AgentType } from './agentType';
import { addIssue, nonBlank, requireUnique } from './common';
import { ConsolidationSummary } from './consolidation';
import { contextIdOf } from './contextId';
import { findDependencyCycle } from './dependencyGraph';
import { DiscoveryReport } from './discovery';
import { CodeMap, QueryFindings, Recommendation } from './discoveryFindings';
import { planDiscoveryResultId, PlanningAgentResult, PlanningTicket, TicketDependency } from './planning';
import { TicketAgentResult } from './tickets';

/** Fields every curated context shares (the spec's Curation mixin), for a given collector. */
function curationShape(...collectors: AgentType[]) {
  return {
    contextId: contextIdOf(...collectors).describe('Id of this curated context.'),
    sourceResultId: contextIdOf(...collectors).describe('Id of the collector result it was curated from.'),
    selectionRationale: nonBlank('Why these items were selected for downstream prompts.'),
  };
}

/** The curated subset of discovery results downstream agents see. */
const DiscoveryCuration = z
  .object({
    discoveryReports: z.array(DiscoveryReport).describe('Curated discovery agent reports.'),
    unifiedCodeMap: CodeMap,
    recommendations: z.array(Recommendation).describe('Curated recommendations.'),
    queryFindings: z.array(QueryFindings).describe('Curated query findings.'),
    consolidationSummary: ConsolidationSummary,
  })
  .superRefine((value, ctx) => {
    requireUnique(ctx, value.recommendations, r => r.recommendationId, ['recommendations'], 'recommendationId');
    requireUnique(ctx, value.queryFindings, f => f.queryId, ['queryFindings'], 'queryId');
  })
  .describe('Curated discovery content.');
/** The curated subset of discovery results. */
type DiscoveryCuration = z.infer<typeof DiscoveryCuration>;

/** Curated context derived from a DiscoveryCollectorResult. */
export const DiscoveryCollectorContext = z
  .object({ ...curationShape('discovery-collector'), curation: DiscoveryCuration })
  .describe('Curated discovery context for downstream agents.')
  .meta({ id: 'DiscoveryCollectorContext' });
/** Curated context derived from a DiscoveryCollectorResult. */
export type DiscoveryCollectorContext = z.infer<typeof DiscoveryCollectorContext>;

/** The curated subset of planning results downstream agents see. */
export const PlanningCuration = z
  .object({
    planningAgentResults: z.array(PlanningAgentResult).describe('Curated planning agent outputs.'),
    finalizedTickets: z.array(PlanningTicket).describe('Curated finalized tickets.'),
    dependencyGraph: z.array(TicketDependency).describe('Curated dependency edges.'),
    discoveryResultId: planDiscoveryResultId,
    consolidationSummary: ConsolidationSummary,
  })
  .superRefine((value, ctx) => {
    requireUnique(ctx, value.finalizedTickets, t => t.ticketId, ['finalizedTickets'], 'ticketId');
    // A curated subset may omit tickets, so dangling edges are allowed here; cycles never are.
    const cycle = findDependencyCycle(value.finalizedTickets, value.dependencyGraph);
    if (cycle !== undefined)
      addIssue(ctx, ['dependencyGraph'], `ticket dependencies form a cycle: ${cycle.join(' -> ')}`);
  })
  .describe('Curated planning content.');
/** The curated subset of planning results. */
export type PlanningCuration = z.infer<typeof PlanningCuration>;

/** Curated context derived from a PlanningCollectorResult. */
export const PlanningCollectorContext = z
  .object({ ...curationShape('planning-collector'), curation: PlanningCuration })
  .describe('Curated planning context for downstream agents.')
  .meta({ id: 'PlanningCollectorContext' });
/** Curated context derived from a PlanningCollectorResult. */
export type PlanningCollectorContext = z.infer<typeof PlanningCollectorContext>;

/** How complete the ticket stage is. */
export const CompletionStatus = z
  .enum(['complete', 'partial', 'blocked'])
  .describe('complete: every ticket has a verified proposal; partial: some do; blocked: none could be done.');

/** The curated subset of ticket results downstream agents see. */
const TicketCuration = z
  .object({
    ticketAgentResults: z.array(TicketAgentResult).describe('Curated ticket agent outputs.'),
    completionStatus: CompletionStatus,
    followUps: z.array(z.string()).describe('Follow-up items.'),
    consolidationSummary: ConsolidationSummary,
  })
  .describe('Curated ticket content.');
/** The curated subset of ticket results. */
type TicketCuration = z.infer<typeof TicketCuration>;

/** Curated context derived from a TicketCollectorResult. */
export const TicketCollectorContext = z
  .object({ ...curationShape('ticket-collector'), curation: TicketCuration })
  .describe('Curated ticket context for downstream agents.')
  .meta({ id: 'TicketCollectorContext' });
/** Curated context derived from a TicketCollectorResult. */
export type TicketCollectorContext = z.infer<typeof TicketCollectorContext>;
