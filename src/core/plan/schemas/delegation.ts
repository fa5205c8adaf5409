import { z } from 'zod';
import { AgentType, DELEGATES_TO } from './agentType';
import { addIssue, nonBlank, requireUnique, StringMap, draftSchema } from './common';
import { agentTypeOf, ContextId, contextIdOf } from './contextId';
import { recordStamp } from './recordStamp';

/** One piece of work an orchestrator hands to one agent. */
export const AgentAssignment = z
  .object({
    agentId: nonBlank('Id for the assigned agent, unique within this delegation, e.g. "discovery-1".'),
    agentType: AgentType.describe('Type of agent that does this work.'),
    assignedGoal: nonBlank('What this agent must achieve.'),
    subdomainFocus: nonBlank('Part of the codebase or problem to focus on.').optional(),
    contextToPass: StringMap.describe(
      'Named pieces of context the agent receives, e.g. {"entryPoint": "src/main.ts"}.',
    ),
  })
  .describe('A work assignment for one agent.');
/** One piece of work an orchestrator hands to one agent. */
export type AgentAssignment = z.infer<typeof AgentAssignment>;

/** Context an orchestrator chose to pass downstream, and why. */
export const ContextSelection = z
  .object({
    selectionId: nonBlank('Id for this selection, unique within this delegation.'),
    sourceContextId: ContextId.describe('Context id the content was taken from; copy it exactly.'),
    selectedContent: nonBlank('The selected content.'),
    selectionRationale: nonBlank('Why this content matters downstream.'),
  })
  .describe('Context selected to pass downstream.');
/** Context an orchestrator chose to pass downstream, and why. */
export type ContextSelection = z.infer<typeof ContextSelection>;

const draftShape = {
  goal: nonBlank('The goal being delegated.'),
  delegationRationale: nonBlank('Why the work is split this way.'),
  assignments: z.array(AgentAssignment).min(1).describe('Work assignments; at least one, agentIds unique.'),
  contextSelections: z.array(ContextSelection).describe('Context passed downstream; may be empty.'),
};
type DelegationContent = z.infer<z.ZodObject<typeof draftShape>>;

function checkDelegation(value: DelegationContent, ctx: z.RefinementCtx): void {
  requireUnique(ctx, value.assignments, a => a.agentId, ['assignments'], 'agentId');
  requireUnique(ctx, value.contextSelections, s => s.selectionId, ['contextSelections'], 'selectionId');
}

/** What an orchestrator model fills in; the pipeline adds ids and version to make a DelegationTemplate. */
export const DelegationTemplateDraft = draftSchema(
  draftShape,
  checkDelegation,
  'How an orchestrator splits its goal into agent assignments.',
);
/** What an orchestrator model fills in. */
export type DelegationTemplateDraft = z.infer<typeof DelegationTemplateDraft>;

const ORCHESTRATORS = Object.keys(DELEGATES_TO) as AgentType[];

/** An orchestrator's output: the goal, its decomposition into assignments, and the context passed on. */
export const DelegationTemplate = z
  .object({
    ...recordStamp(
      'delegation',
      contextIdOf(...ORCHESTRATORS).describe('Id of this delegation; names the orchestrator.'),
    ),
    ...draftShape,
    metadata: StringMap.describe('Training metadata.'),
  })
  .superRefine((value, ctx) => {
    checkDelegation(value, ctx);
    const orchestrator = agentTypeOf(value.resultId);
    const allowed = orchestrator === undefined ? undefined : DELEGATES_TO[orchestrator];
    if (allowed === undefined) return;
    value.assignments.forEach((assignment, index) => {
      if (!allowed.includes(assignment.agentType)) {
        addIssue(
          ctx,
          ['assignments', index, 'agentType'],
          `${orchestrator} may assign only ${allowed.join(', ')}, not ${assignment.agentType}`,
        );
      }
    });
  })
  .describe('An orchestrator output: goal, assignments and selected context.');
/** An orchestrator's output. */
export type DelegationTemplate = z.infer<typeof DelegationTemplate>;
