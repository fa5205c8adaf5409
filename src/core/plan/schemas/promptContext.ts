import { z } from 'zod';
import { AgentType } from './agentType';
import { addIssue } from './common';
import { agentTypeOf, ContextId } from './contextId';
import { PreviousContext } from './previousContext';

/** What prompt contributors see about the agent being prompted. */
export const PromptContext = z
  .object({
    agentType: AgentType.describe('Type of agent being prompted.'),
    currentContextId: ContextId.describe('Id of the current execution; names the same agent type.'),
    previousContext: PreviousContext.optional(),
    metadata: z.record(z.string(), z.unknown()).describe('Additional metadata.'),
  })
  .superRefine((value, ctx) => {
    const idType = agentTypeOf(value.currentContextId);
    if (idType !== undefined && idType !== value.agentType) {
      addIssue(ctx, ['currentContextId'], `names ${idType}, but the agent is ${value.agentType}`);
    }
    if (value.previousContext !== undefined && value.previousContext.kind !== value.agentType) {
      addIssue(
        ctx,
        ['previousContext', 'kind'],
        `is for ${value.previousContext.kind}, but the agent is ${value.agentType}`,
      );
    }
  })
  .describe('Context given to prompt contributors.');
/** What prompt contributors see about the agent being prompted. */
export type PromptContext = z.infer<typeof PromptContext>;
