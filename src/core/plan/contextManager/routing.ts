import { z } from 'zod';
import { dedupeArray, isObject } from '../../llm/replyNormalizing';
import { dropUnknownStrings, objectAt, type Note } from '../drafts/normalizing';
import { nonBlank } from '../schemas/common';
import { distinctItems, oneOf } from '../schemas/vocabulary';

// Shown in chat (the question as a quote) and handed to an agent: trimmed, never blank.
const text = (description: string) => nonBlank(description).trim();

/** The context the context manager rebuilds, citing history items by `itemId` (an enum when asked of a model). */
function reconstructedContext(itemId: z.ZodType<string>) {
  return z.object({
    goal: text('What the target agent must achieve now.'),
    summary: text('The context the agent needs, rebuilt from the history: what was done, what was found, what failed.'),
    instructions: text('What to do now, and what not to repeat.'),
    relevantItemIds: distinctItems(itemId, 'History items this context was built from.'),
    excludedItemIds: distinctItems(
      itemId,
      'History items the agent should ignore, e.g. the repeated attempts.',
    ).default([]),
  });
}

/** A reconstructed context as a run's board keeps it for another stage's agents (`PipelineBoard.handoff`). */
export const ReconstructedContext = reconstructedContext(z.string().min(1));

/**
 * The context manager's decision (spec 001 ContextManagerResultRouting) for one request: route to exactly one of
 * `agentTypes` with a reconstructed context citing items of `itemIds` (enums in the JSON Schema; normalizeRouting
 * drops a cited item that does not exist), or interrupt and ask the user. One `targetAgentType` field replaces the
 * spec's twenty nullable request fields, so "exactly one" holds by construction. The union sits under `next` because
 * model providers need a tool's input schema to be an object at the root.
 */
export function routingSchemaFor(agentTypes: readonly string[], itemIds: ReadonlySet<string>) {
  if (agentTypes.length === 0) throw new RangeError('The context manager needs at least one agent type to route to.');
  const itemId = oneOf(
    [...itemIds],
    'The id of an item of the run history.',
    'Must be an item id the history tools showed.',
  );
  const route = z.object({
    kind: z.literal('route'),
    targetAgentType: z.enum(agentTypes).describe('The one agent type to hand the reconstructed context to.'),
    context: reconstructedContext(itemId),
  });
  const askUser = z.object({
    kind: z.literal('ask_user'),
    question: text('One question whose answer unblocks the run.'),
  });
  return z.object({
    reason: text('What the history shows and why this is the way forward.'),
    next: z.discriminatedUnion('kind', [route, askUser]),
  });
}
export type ContextManagerRouting = z.infer<ReturnType<typeof routingSchemaFor>>;
/** The context the context manager rebuilds for the agent it routes to. */
export type ReconstructedContext = z.infer<typeof ReconstructedContext>;

/** Routing fixes: each cited history item once, and only items that exist (an unknown one is dropped and noted). */
export function normalizeRouting(itemIds: ReadonlySet<string>): (reply: unknown, note: Note) => unknown {
  return (reply, note) => {
    if (!isObject(reply)) return reply;
    const context = objectAt(objectAt(reply, 'next'), 'context');
    for (const key of ['relevantItemIds', 'excludedItemIds']) {
      dedupeArray(context, key, undefined, 'history item', note);
      dropUnknownStrings(context, key, itemIds, 'history item', note);
    }
    return reply;
  };
}
