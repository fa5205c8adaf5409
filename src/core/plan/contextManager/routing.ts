import { z } from 'zod';
import { dedupeArray, isObject } from '../../llm/replyNormalizing';
import { dropUnknownStrings, objectAt, type Note } from '../drafts/normalizing';

/** Most history item ids listed in the routing schema's enum; a longer history is described and normalized instead. */
const ITEM_ENUM_CAP = 200;

/** A history item id: one of `itemIds` (an enum up to ITEM_ENUM_CAP), else described. */
function itemIdOf(itemIds: ReadonlySet<string>): z.ZodType<string, string> {
  if (itemIds.size === 0 || itemIds.size > ITEM_ENUM_CAP)
    return z.string().min(1).describe('The id of an item of the run history.');
  return z.enum([...itemIds] as [string, ...string[]]).describe('The id of an item of the run history.') as z.ZodType<
    string,
    string
  >;
}

/** Visible text: the JSON Schema says "not only whitespace", which `trim().min(1)` alone does not. */
function text(description: string) {
  return z.string().trim().min(1).regex(/\S/).describe(description);
}

/**
 * The context manager's decision (spec 001 ContextManagerResultRouting) for one loop: route back to exactly one of
 * `agentTypes` with a reconstructed context citing items of `itemIds` (enums in the JSON Schema; normalizeRouting
 * drops a cited item that does not exist), or interrupt and ask the user. One `targetAgentType` field replaces the
 * spec's twenty nullable request fields, so "exactly one" holds by construction. The union sits under `next` because
 * model providers need a tool's input schema to be an object at the root.
 */
export function routingSchemaFor(agentTypes: readonly string[], itemIds: ReadonlySet<string>) {
  if (agentTypes.length === 0) throw new RangeError('The context manager needs at least one agent type to route to.');
  const itemId = itemIdOf(itemIds);
  const route = z.object({
    kind: z.literal('route'),
    targetAgentType: z.enum(agentTypes).describe('The one agent type to hand the reconstructed context to.'),
    context: z.object({
      goal: text('What the target agent must achieve now.'),
      summary: text(
        'The context the agent needs, rebuilt from the history: what was done, what was found, what failed.',
      ),
      instructions: text('What to do differently this time so the loop does not repeat.'),
      relevantItemIds: z
        .array(itemId)
        .meta({ uniqueItems: true })
        .describe('History items this context was built from.'),
      excludedItemIds: z
        .array(itemId)
        .meta({ uniqueItems: true })
        .default([])
        .describe('History items the agent should ignore, e.g. the repeated attempts.'),
    }),
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
/** The context manager's decision. */
export type ContextManagerRouting = z.infer<ReturnType<typeof routingSchemaFor>>;
/** The context the context manager rebuilds for the agent it routes to. */
export type ReconstructedContext = Extract<ContextManagerRouting['next'], { kind: 'route' }>['context'];

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
