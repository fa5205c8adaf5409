import { z } from 'zod';

/** The context the context manager rebuilds for the agent it routes to. */
export const ReconstructedContextSchema = z.object({
  goal: z.string().trim().min(1).describe('What the target agent must achieve now.'),
  summary: z
    .string()
    .trim()
    .min(1)
    .describe('The context the agent needs, rebuilt from the history: what was done, what was found, what failed.'),
  instructions: z.string().trim().min(1).describe('What to do differently this time so the loop does not repeat.'),
  relevantItemIds: z.array(z.string().min(1)).describe('History items this context was built from.'),
  excludedItemIds: z
    .array(z.string().min(1))
    .default([])
    .describe('History items the agent should ignore, e.g. the repeated attempts.'),
});
export type ReconstructedContext = z.infer<typeof ReconstructedContextSchema>;

const RouteSchema = z.object({
  kind: z.literal('route'),
  targetAgentType: z.string().min(1).describe('The one agent type to hand the reconstructed context to.'),
  context: ReconstructedContextSchema,
});

const AskUserSchema = z.object({
  kind: z.literal('ask_user'),
  question: z.string().trim().min(1).describe('One question whose answer unblocks the run.'),
});

/**
 * The context manager's decision (spec 001 ContextManagerResultRouting): route back to exactly one agent
 * with a reconstructed context, or interrupt and ask the user. One `targetAgentType` field replaces the
 * spec's twenty nullable request fields, so "exactly one" holds by construction. The union sits under
 * `next` because model providers need a tool's input schema to be an object at the root.
 */
export const ContextManagerRoutingSchema = z.object({
  reason: z.string().trim().min(1).describe('What the history shows and why this is the way forward.'),
  next: z.discriminatedUnion('kind', [RouteSchema, AskUserSchema]),
});
export type ContextManagerRouting = z.infer<typeof ContextManagerRoutingSchema>;

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
 * The routing schema for one decision: the target is one of `agentTypes` and every cited item one of `itemIds`
 * (enums in the JSON Schema), so a schema-following reply is valid; normalizeRouting drops what is left over.
 */
export function routingSchemaFor(
  agentTypes: readonly string[],
  itemIds: ReadonlySet<string>,
): z.ZodType<ContextManagerRouting> {
  if (agentTypes.length === 0) throw new RangeError('The context manager needs at least one agent type to route to.');
  const itemId = itemIdOf(itemIds);
  const route = RouteSchema.extend({
    targetAgentType: z.enum(agentTypes).describe('The one agent type to hand the reconstructed context to.'),
    context: ReconstructedContextSchema.extend({
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
  const askUser = AskUserSchema.extend({ question: text('One question whose answer unblocks the run.') });
  return ContextManagerRoutingSchema.extend({
    reason: text('What the history shows and why this is the way forward.'),
    next: z.discriminatedUnion('kind', [route, askUser]),
  }).superRefine((routing, issues) => {
    if (routing.next.kind !== 'route') return;
    const cited = [
      ...routing.next.context.relevantItemIds.map((id, index) => ({
        id,
        path: ['next', 'context', 'relevantItemIds', index],
      })),
      ...routing.next.context.excludedItemIds.map((id, index) => ({
        id,
        path: ['next', 'context', 'excludedItemIds', index],
      })),
    ];
    for (const { id, path } of cited) {
      if (!itemIds.has(id)) issues.addIssue({ code: 'custom', path, message: `Unknown history item id "${id}".` });
    }
  });
}
