import { z } from 'zod';
import type { AgentType } from './agentType';
import { nonBlank } from './common';
import { contextIdOf } from './contextId';
import { DiscoveryCollectorResult, PlanningCollectorResult, TicketCollectorResult } from './collectors';
import { DiscoveryCollectorContext, PlanningCollectorContext, TicketCollectorContext } from './curation';
import { DiscoveryReport } from './discovery';
import { PlanningAgentResult } from './planning';
import { TicketAgentResult } from './tickets';

/** Why the previous attempt failed, when it did. */
const AttemptError = z
  .object({
    message: nonBlank('Error message of the failed attempt.'),
    stackTrace: z.string().optional().describe('Stack trace of the failure, if any.'),
  })
  .describe('Why the previous attempt failed.');

/** Fields every previous context shares (the spec's PreviousContext mixin). */
function variant<Kind extends AgentType, Shape extends z.ZodRawShape>(kind: Kind, shape: Shape) {
  return z.object({
    kind: z.literal(kind),
    previousContextId: contextIdOf(kind).describe('Id of the previous attempt; names the same agent type.'),
    serializedOutput: nonBlank('The previous attempt output, JSON-serialized.'),
    error: AttemptError.optional().describe('Set when the previous attempt failed.'),
    attemptNumber: z.number().int().min(1).describe('1-based number of the previous attempt.'),
    previousAttemptAt: z.iso.datetime().describe('When the previous attempt ran.'),
    ...shape,
  });
}

const upToPlanning = {
  previousDiscoveryCuration: DiscoveryCollectorContext.optional(),
  previousPlanningCuration: PlanningCollectorContext.optional(),
};
const curations = { ...upToPlanning, previousTicketCuration: TicketCollectorContext.optional() };

/**
 * What a rerun agent learns about its previous attempt, by agent type (`kind`): the raw output and
 * error, plus typed results and curations where they parsed. Curations are set only after a route-back.
 */
export const PreviousContext = z
  .discriminatedUnion('kind', [
    variant('orchestrator', curations),
    variant('orchestrator-collector', curations),
    variant('discovery-orchestrator', curations),
    variant('planning-orchestrator', upToPlanning),
    variant('ticket-orchestrator', curations),
    variant('discovery-agent', { previousResult: DiscoveryReport.optional() }),
    variant('planning-agent', { previousResult: PlanningAgentResult.optional() }),
    variant('ticket-agent', { previousResult: TicketAgentResult.optional() }),
    variant('discovery-collector', {
      previousResult: DiscoveryCollectorResult.optional(),
      previousDiscoveryCuration: DiscoveryCollectorContext.optional(),
    }),
    variant('planning-collector', {
      previousResult: PlanningCollectorResult.optional(),
      previousPlanningCuration: PlanningCollectorContext.optional(),
    }),
    variant('ticket-collector', {
      previousResult: TicketCollectorResult.optional(),
      previousTicketCuration: TicketCollectorContext.optional(),
    }),
    variant('review', {}),
    variant('merger', {}),
  ])
  // Checked where it enters from a file (a stored run): the result it carries is the attempt it names.
  .superRefine((value, ctx) => {
    const result = 'previousResult' in value ? value.previousResult : undefined;
    if (result !== undefined && result.resultId !== value.previousContextId)
      ctx.addIssue({
        code: 'custom',
        path: ['previousResult', 'resultId'],
        message: `the previous result ${result.resultId} is not the previous attempt ${value.previousContextId}`,
      });
  })
  .describe('The previous attempt of a rerun agent, by agent type.');
export type PreviousContext = z.infer<typeof PreviousContext>;
