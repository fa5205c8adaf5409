import { z } from 'zod';
import { AgentType, ORCHESTRATORS } from './agentType';
import { nonBlank, requireUnique, StringMap } from './common';
import { ContextId, contextIdOf } from './contextId';
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
export type AgentAssignment = z.infer<typeof AgentAssignment>;

/** Context an orchestrator chose to pass downstream, and why. */
const ContextSelection = z
  .object({
    selectionId: nonBlank('Id for this selection, unique within this delegation.'),
    sourceContextId: ContextId.describe('Context id the content was taken from; copy it exactly.'),
    selectedContent: nonBlank('The selected content.'),
    selectionRationale: nonBlank('Why this content matters downstream.'),
  })
  .describe('Context selected to pass downstream.');

/**
 * An orchestrator's output: the goal, its decomposition into assignments, and the context passed on. Council's
 * orchestrators split the work themselves, so this describes the record; no model drafts it.
 */
export const DelegationTemplate = z
  .object({
    ...recordStamp(
      'delegation',
      contextIdOf(...ORCHESTRATORS).describe('Id of this delegation; names the orchestrator.'),
    ),
    goal: nonBlank('The goal being delegated.'),
    delegationRationale: nonBlank('Why the work is split this way.'),
    assignments: z.array(AgentAssignment).min(1).describe('Work assignments; at least one, agentIds unique.'),
    contextSelections: z.array(ContextSelection).describe('Context passed downstream; may be empty.'),
    metadata: StringMap.describe('Training metadata.'),
  })
  // Checked where a delegation enters from a file (a stored run): a duplicate agent id would merge two agents' work.
  .superRefine((value, ctx) =>
    requireUnique(ctx, value.assignments, assignment => assignment.agentId, ['assignments'], 'agentId'),
  )
  .describe('An orchestrator output: goal, assignments and selected context.');
export type DelegationTemplate = z.infer<typeof DelegationTemplate>;
